package org.topupbatch.config;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import org.apache.camel.BindToRegistry;
import org.apache.camel.component.http.HttpComponent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.Outbox;
import org.topupbatch.notify.CallbackConnections;
import org.topupbatch.notify.Callbacks;
import org.topupbatch.notify.Notifications;
import org.topupbatch.notify.OutboxDelivery;
import org.topupbatch.notify.OutboxSchedule;
import org.topupbatch.settings.Settings;

/**
 * Notifications and callbacks (routes/notify.yaml, docs/operating.md#notifications, docs/callbacks.md):
 * the one {@link Notifications} that every area tells its events to, the {@link Callbacks} to the
 * ERP, and the {@link OutboxDelivery} that sends both from the journal's outbox.
 */
public final class NotifyConfiguration extends AreaConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(NotifyConfiguration.class);

    private final Settings settings;
    private final JournalConfiguration journal;
    private final Clock clock;
    private final String node;
    private Notifications notifications;
    private Callbacks callbacks;
    private org.topupbatch.notify.CustomerMessages customers;
    /** Told the batch of a customer's message once it is delivered or given up (set by the report's area). */
    private volatile java.util.function.LongConsumer customerOutcome = batchId -> { };

    private final String nodeName;

    /** @param nodeName this node's name (topup.node-name): its claims in the outbox are {@code <name>:<process id>} */
    public NotifyConfiguration(Settings settings, JournalConfiguration journal, Clock clock, String nodeName) {
        this.settings = settings;
        this.journal = journal;
        this.clock = clock;
        this.nodeName = nodeName;
        this.node = nodeName + ":" + ProcessHandle.current().pid();
    }

    @BindToRegistry("notifications")
    public synchronized Notifications notifications() {
        if (notifications == null) {
            notifications = new Notifications(settings.notifications().uris(), journal.outbox());
        }
        return notifications;
    }

    public synchronized Callbacks callbacks() {
        if (callbacks == null) {
            callbacks = new Callbacks(settings.callbacks());
        }
        return callbacks;
    }

    /**
     * The customers' vouchers (docs/customer-messages.md), or null when no channel is set. Its template
     * is read (and its placeholders checked) at start.
     */
    public synchronized org.topupbatch.notify.CustomerMessages customers() {
        if (customers == null && settings.customers().anyChannel()) {
            customers = new org.topupbatch.notify.CustomerMessages(settings.customers(),
                    org.topupbatch.notify.CustomerTemplate.load(settings.customers().template()));
        }
        return customers;
    }

    /**
     * Before any route runs: a row's SUCCESS writes its customer's voucher when a channel reaches the
     * customer; which channels are unset is said once here.
     */
    @Override
    public void configure(org.apache.camel.CamelContext camelContext) {
        org.topupbatch.settings.CustomerSettings c = settings.customers();
        if (!c.anyChannel()) {
            LOG.info("No customer channel is set (topup.customer.email-uri, topup.customer.whatsapp-uri or sms-uri):"
                    + " no customer gets a voucher message; the report's customer_notified stays empty");
            return;
        }
        if (c.emailUri() == null) {
            LOG.info("topup.customer.email-uri is not set: an e-mail notify_to gets no message");
        }
        if (c.phoneUri() == null) {
            LOG.info("topup.customer.{}-uri is not set (topup.customer.phone-channel is {}): a mobile notify_to gets no message",
                    c.phoneChannel().name().toLowerCase(java.util.Locale.ROOT), c.phoneChannel().name().toLowerCase(java.util.Locale.ROOT));
        }
        journal.reachCustomers(customers().channels());
    }

    /** Who hears that a customer's message of a batch was delivered or given up: its report may be due. */
    public void onCustomerOutcome(java.util.function.LongConsumer told) {
        this.customerOutcome = told;
    }

    /** The http component callbacks go through: its connections refuse internal addresses (docs/callbacks.md). */
    @BindToRegistry(CallbackConnections.COMPONENT)
    public HttpComponent callbackComponent() {
        return CallbackConnections.component(callbacks().guard());
    }

    @BindToRegistry("outboxDelivery")
    public OutboxDelivery outboxDelivery() {
        // an earlier process of this node was killed mid-try: its messages are due again now
        int released = journal.outbox().releaseClaimsOf(nodeName);
        if (released > 0) {
            LOG.info("{} outgoing messages an earlier run of node {} was sending are due again", released, nodeName);
        }
        return new OutboxDelivery(journal.outbox(), notifications(), callbacks(), customers(),
                new OutboxSchedule(settings.callbacks().retryDelay(), settings.callbacks().giveUpAfter()), clock, node)
                .afterCustomerMessage(batchId -> customerOutcome.accept(batchId));
    }

    /**
     * Once mode, before the run ends: delivers what is due, and what falls due within {@code bound},
     * so a once run's last report is told; what still waits is kept for the next start (one line).
     */
    public void deliverBeforeExit(Duration bound) {
        if (camel == null || camel.getRoute("notify-outbox") == null) {
            return;
        }
        Outbox outbox = journal.outbox();
        Instant deadline = clock.instant().plus(bound);
        try (org.apache.camel.ProducerTemplate producer = camel.createProducerTemplate()) {
            while (true) {
                producer.sendBody("direct:topup-outbox", null);
                Outbox.OutboxState state = outbox.state(500);
                Instant next = state.waitingListed().stream().map(Outbox.OutboxEntry::nextTryAt)
                        .min(Comparator.naturalOrder()).orElse(null);
                if (next == null || next.isAfter(deadline)) {
                    if (state.waiting() > 0) {
                        LOG.info("{} outgoing messages wait in the journal's outbox; the next start delivers them",
                                state.waiting());
                    }
                    return;
                }
                long sleep = Math.max(50, Duration.between(clock.instant(), next).toMillis());
                Thread.sleep(Math.min(sleep, 1000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("The outbox could not be delivered before the end of the run: {}",
                    org.topupbatch.text.OneLine.of(String.valueOf(e.getMessage()), 300));
        }
    }
}
