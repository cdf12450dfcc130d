package org.topupbatch.observe;

import org.topupbatch.journal.ProductOutages.ProductOutage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.AccountCounts;
import org.topupbatch.journal.BatchOverview;
import org.topupbatch.journal.BatchControl;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.ProductOutages;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.journal.RowState;
import org.topupbatch.journal.StatusJournal;
import org.topupbatch.provider.BalanceSeen;

/**
 * What the journal says about the run, read at most once every few seconds however many pages
 * and scrapers ask: the metrics' gauges and the dashboard share one reading.
 */
public final class RunReadings {

    /** One reading of the journal. */
    public record Reading(Map<RowState, Long> rowsByState, List<BatchOverview> batches,
                          Optional<BalanceSeen.Reading> journalBalance, List<ProductOutage> held,
                          long batchesHeld, long batchesCancelled, long rowsInHeldBatches,
                          Optional<org.topupbatch.journal.ReconcileJournal.Reconciliation> reconciliation, Instant at) {

        /** Rows waiting, not sent, because the provider reports their product unavailable. */
        public long heldRows() {
            return held.stream().mapToLong(ProductOutage::rowsWaiting).sum();
        }

        /** Orders sent whose final status is still to learn. */
        public long pendingOrders() {
            return rowsByState.getOrDefault(RowState.SENDING, 0L) + rowsByState.getOrDefault(RowState.PENDING, 0L)
                    + rowsByState.getOrDefault(RowState.UNKNOWN, 0L);
        }
    }

    static final Duration FRESH = Duration.ofSeconds(2);
    static final int BATCHES_SHOWN = 20;
    private static final Logger LOG = LoggerFactory.getLogger(RunReadings.class);

    // one reading takes a little of each role: the counts, the operator's holds, the products held,
    // the last balance known and the last reconciliation
    private final StatusJournal status;
    private final ReportingJournal reporting;
    private final BatchControl control;
    private final ProductOutages outages;
    private final ReconcileJournal reconciliations;
    private final Clock clock;
    private final BalanceSeen answers;
    /** Counts the shown batches per named account, for the dashboard (none for the unnamed account's rows). */
    private final BatchAccountCounts perAccount;
    private Reading last;
    private boolean failing;

    /**
     * {@code answers} holds the balance of this process's latest provider answer that carried one.
     */
    public RunReadings(StatusJournal status, ReportingJournal reporting, BatchControl control, ProductOutages outages,
                       ReconcileJournal reconciliations, Clock clock, BalanceSeen answers) {
        this.status = status;
        this.reporting = reporting;
        this.control = control;
        this.outages = outages;
        this.reconciliations = reconciliations;
        this.clock = clock;
        this.answers = answers;
        this.perAccount = new BatchAccountCounts(status, clock);
        this.last = new Reading(Map.of(), List.of(), Optional.empty(), List.of(), 0, 0, 0, Optional.empty(), Instant.EPOCH);
    }

    /** The latest reading; the previous one while the journal does not answer (health says so). */
    public synchronized Reading current() {
        Instant now = clock.instant();
        if (Duration.between(last.at(), now).compareTo(FRESH) < 0) {
            return last;
        }
        try {
            long[] operator = control.heldAndCancelled();
            last = new Reading(status.rowsByState(), status.batchOverviews(BATCHES_SHOWN),
                    reporting.latestKnownBalance().map(b -> new BalanceSeen.Reading(b.balance(), b.at())),
                    outages.productOutages().stream().filter(ProductOutage::held).toList(), operator[0], operator[1],
                    operator[2], reconciliations.lastReconciliation(), now);
            failing = false;
        } catch (JournalException e) {
            if (!failing) {
                LOG.warn("The dashboard and metrics show the last reading: the journal does not answer ({})", e.getMessage());
                failing = true;
            }
        }
        return last;
    }

    /**
     * The batches of a reading, each with its rows per named account, by batch id (a batch of the unnamed
     * account has none). Asked by the dashboard only, and only when an account has a name, so a metrics
     * scrape costs no such count, nor waits for one; the last counts while the journal does not answer.
     */
    public Map<Long, Map<String, AccountCounts>> accountsOf(List<BatchOverview> batches) {
        try {
            return perAccount.of(batches);
        } catch (JournalException e) {
            return perAccount.last();
        }
    }

    /**
     * The newest balance known: the latest provider answer that carried one (create-order's
     * balance_after among them, so it follows the spending order by order), else the journal's
     * (a standby, or a node that has not called the provider yet). Not cached: it costs no query.
     */
    public Optional<BalanceSeen.Reading> balance() {
        Optional<BalanceSeen.Reading> stored = current().journalBalance();
        Optional<BalanceSeen.Reading> answered = answers.last();
        if (answered.isEmpty()) {
            return stored;
        }
        if (stored.isEmpty() || !stored.get().at().isAfter(answered.get().at())) {
            return answered;
        }
        return stored;
    }
}
