package org.topupbatch.config;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import org.apache.camel.BindToRegistry;
import org.apache.camel.PropertyInject;
import org.topupbatch.settings.Settings;
import org.topupbatch.submit.Cancellations;
import org.topupbatch.submit.OrderQueue;
import org.topupbatch.submit.PriceGuard;
import org.topupbatch.submit.ProductAvailability;
import org.topupbatch.submit.OrderSubmitter;
import org.topupbatch.submit.SubmitOutcomes;

/** Submitting (routes/submit.yaml): which rows are due, marking them SENDING, and what each answer means. */
public final class SubmitConfiguration extends AreaConfiguration implements AutoCloseable {

    private final Settings settings;
    private final Clock clock;
    private final JournalConfiguration journal;
    private final ProviderConfiguration provider;
    /** Read through Camel's properties, which take topup.* keys from the settings (checked 1..256 at start). */
    @PropertyInject("topup.submit.concurrency")
    private int concurrency;
    private OrderSubmitter submitter;
    private Cancellations cancellations;
    private ExecutorService workers;

    private final NotifyConfiguration notify;

    public SubmitConfiguration(Settings settings, Clock clock, JournalConfiguration journal, ProviderConfiguration provider,
                               NotifyConfiguration notify) {
        this.notify = notify;
        this.settings = settings;
        this.clock = clock;
        this.journal = journal;
        this.provider = provider;
    }

    private org.topupbatch.cluster.AccountsLed led = org.topupbatch.cluster.AccountsLed.EVERY;

    /** The accounts this node sends for (several accounts on two nodes: those it leads). */
    void ledBy(org.topupbatch.cluster.AccountsLed accounts) {
        this.led = accounts;
    }

    @BindToRegistry("orderSubmitter")
    public synchronized OrderSubmitter orderSubmitter() {
        if (submitter == null) {
            ProductAvailability availability = new ProductAvailability(journal.journal().outages(), provider.prices(),
                    settings.track().outageWait(), settings.track().outageRecheck(), clock);
            submitter = new OrderSubmitter(journal.journal().submission(), provider.gateways(), clock,
                    new PriceGuard(provider::prices, settings.guards().priceTolerance()), availability);
            submitter.queue().ledBy(led);
            submitter.queue().onStopped((batchId, file, reason) -> notify.notifications().messagesFor(new org.topupbatch.notify.Notice(
                    "batch_stopped", "topup-batch: batch " + org.topupbatch.text.OneLine.of(file, 200) + " stopped",
                    "Sending stopped for batch " + org.topupbatch.text.OneLine.of(file, 200) + ": "
                            + org.topupbatch.text.OneLine.of(reason, 500) + ". Rows not yet sent stay queued.",
                    java.util.Map.of("batch", file, "reason", reason)), batchId));
        }
        return submitter;
    }

    /** The submit route's steps: which rows are due, marking them SENDING, the create-order request. */
    @BindToRegistry("orderQueue")
    public OrderQueue orderQueue() {
        return orderSubmitter().queue();
    }

    /** The submit route's last step: what the provider's answer (or its absence) means for the row. */
    @BindToRegistry("submitOutcomes")
    public SubmitOutcomes submitOutcomes() {
        return orderSubmitter().outcomes();
    }

    /** The watch over products the provider reports unavailable (routes/submit.yaml, route product-outages). */
    @BindToRegistry("productAvailability")
    public ProductAvailability productAvailability() {
        return orderSubmitter().availability();
    }

    /** Decides the rows waiting for the outcome of an order they repeat (routes/submit.yaml, route repeat-waits). */
    @BindToRegistry("repeatWaits")
    public org.topupbatch.journal.RepeatWaits repeatWaits() {
        return journal.journal().repeatWaits();
    }

    /** Takes up cancels written by the cancel command (routes/submit.yaml, route batch-cancellations). */
    @BindToRegistry("cancellations")
    public synchronized Cancellations cancellations() {
        if (cancellations == null) {
            cancellations = new Cancellations(journal.journal().control(), clock);
        }
        return cancellations;
    }

    /** The split's worker threads: enough requests in flight that latency never caps the rate. */
    @BindToRegistry("submitWorkers")
    public synchronized ExecutorService submitWorkers() {
        if (workers == null) {
            workers = camel.getExecutorServiceManager().newFixedThreadPool(this, "submit", concurrency);
        }
        return workers;
    }

    @Override
    public synchronized void close() {
        if (workers != null) {
            workers.shutdownNow();
            workers = null;
        }
    }
}
