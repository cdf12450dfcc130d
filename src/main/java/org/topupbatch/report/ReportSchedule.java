package org.topupbatch.report;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.journal.RowState;

/**
 * Decides when a batch's report is due: once every order is final, or when
 * {@code topup.pending-timeout} has passed since the batch's last order went out (then with the
 * pending ones as pending, and again whenever more of them settle). Both the timeout's start (the
 * rows' latest submission time) and whether a batch was reported at its timeout come from the
 * journal, so a restart neither resets the clock nor forgets the timeout.
 */
public class ReportSchedule {

    /** What is left to report, for the once mode's exit code. */
    public enum Outstanding { NONE, ONLY_TIMED_OUT, WAITING }

    /** A report due now; {@code complete} when every row is final (progress is null for an unreadable file). */
    public record Due(BatchProgress progress, boolean complete) {
    }

    /** The slow look over every unreported batch: it finds timeouts and whatever no event announced. */
    static final Duration LONGEST_BACKSTOP = Duration.ofSeconds(30);

    /** How long after a row's success its report waits for the customer's message (the first tries of its back-off). */
    static final Duration CUSTOMER_WAIT = Duration.ofSeconds(15);

    private static final Logger LOG = LoggerFactory.getLogger(ReportSchedule.class);

    private final ReportingJournal journal;
    private final Clock clock;
    private final Duration pendingTimeout;
    /** What the last report at the timeout showed, so that a timed-out report is rewritten only when something settled. */
    private final Map<Long, BatchProgress> shownAtTimeout = new ConcurrentHashMap<>();
    /** When this run began: a batch held before it is not waited for (the operator held it for a later run). */
    private final Instant runStarted;

    public ReportSchedule(ReportingJournal journal, Clock clock, Duration pendingTimeout) {
        this.journal = journal;
        this.clock = clock;
        this.pendingTimeout = pendingTimeout;
        this.runStarted = clock.instant();
    }

    /**
     * How often the report backstop looks at every unreported batch: every 30 s, or every
     * pending timeout when that is shorter, so a timed-out report is late by one period at most.
     */
    public static Duration backstopPeriod(Duration pendingTimeout) {
        Duration period = pendingTimeout.compareTo(LONGEST_BACKSTOP) < 0 ? pendingTimeout : LONGEST_BACKSTOP;
        return period.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : period;
    }

    /** Batches never reported, or reported while some orders were not final. */
    public List<BatchRecord> unreported() {
        return journal.batchesToReport();
    }

    /** The report of this batch, if one is due now. */
    public Optional<Due> due(BatchRecord batch) {
        if (batch.reportComplete() && batch.reportedAt() != null) {
            return Optional.empty(); // already written with every row final
        }
        if (batch.error() != null) {
            return Optional.of(new Due(null, true));
        }
        BatchProgress p = journal.progress(batch.id());
        boolean halted = batch.haltReason() != null;
        if (p.count(RowState.SENDING) > 0 || (!halted && p.count(RowState.ACCEPTED) > 0)) {
            if (batch.held() && p.count(RowState.SENDING) + p.count(RowState.PENDING) + p.count(RowState.UNKNOWN) == 0
                    && !p.equals(shownAtTimeout.get(batch.id()))) {
                // held by the operator: what happened so far, as a report that is not complete (written
                // again after resume); a once run can end on it
                return Optional.of(new Due(p, false));
            }
            return Optional.empty(); // still submitting
        }
        // a row waiting for the outcome of an order it repeats is open like a pending order (not in a halted batch: never sent)
        long open = p.count(RowState.PENDING) + p.count(RowState.UNKNOWN) + (halted ? 0 : p.count(RowState.WAITING));
        if (open == 0) {
            // a customer's voucher still being tried: the report waits a little for its outcome, so that its
            // customer_notified says sent (docs/customer-messages.md); the outcome or the backstop brings it
            if (journal.customerMessagesWaiting(batch.id(), clock.instant().minus(CUSTOMER_WAIT))) {
                return Optional.empty();
            }
            return Optional.of(new Due(p, true));
        }
        Instant now = clock.instant();
        Instant since = journal.lastSubmission(batch.id())
                .orElse(batch.submitStartedAt() != null ? batch.submitStartedAt() : batch.startedAt());
        if (Duration.between(since, now).compareTo(pendingTimeout) < 0 || p.equals(shownAtTimeout.get(batch.id()))) {
            return Optional.empty();
        }
        if (!batch.reportedAtTimeout()) {
            LOG.warn("Batch {}: {} orders still pending after {}; writing the report now, it will be rewritten as they settle",
                    batch.fileName(), open, pendingTimeout);
        }
        return Optional.of(new Due(p, false));
    }

    /** Remembers what a report showed, so that a timed-out one is written again only when something changed. */
    public void written(BatchRecord batch, Due due) {
        if (due.complete()) {
            shownAtTimeout.remove(batch.id());
        } else {
            shownAtTimeout.put(batch.id(), due.progress());
        }
    }

    public Outstanding outstanding() {
        List<BatchRecord> open = journal.batchesToReport();
        if (open.isEmpty()) {
            return Outstanding.NONE;
        }
        return open.stream().allMatch(this::leftAsItStands) ? Outstanding.ONLY_TIMED_OUT : Outstanding.WAITING;
    }

    /**
     * A batch whose report was written not complete and may stay so for this run: its pending
     * timeout is over. A batch the operator held during this run is waited for as pending orders
     * are, for the pending timeout from the hold (or from its last order, when that came later): a
     * {@code resume} within it lets a once run finish the batch instead of ending on it. One held
     * before this run began is left at once: the operator held it for a later run. A batch reported
     * while held and resumed since is not left: its orders are being sent and its report will be
     * written again.
     */
    private boolean leftAsItStands(BatchRecord batch) {
        if (!batch.reportedAtTimeout()) {
            return false;
        }
        if (batch.held() && batch.heldAt().isBefore(runStarted)) {
            return true;
        }
        Instant since = journal.lastSubmission(batch.id())
                .orElse(batch.submitStartedAt() != null ? batch.submitStartedAt() : batch.startedAt());
        if (batch.held() && batch.heldAt().isAfter(since)) {
            since = batch.heldAt();
        }
        return Duration.between(since, clock.instant()).compareTo(pendingTimeout) >= 0;
    }
}
