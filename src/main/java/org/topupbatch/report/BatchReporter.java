package org.topupbatch.report;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;

/**
 * Decides when a batch's report is due and writes it: once every order is final, or when
 * {@code topup.pending-timeout} has passed since the batch's last order went out (then with the
 * pending ones as pending, and again whenever more of them settle). Both the timeout's start (the
 * rows' latest submission time) and whether a batch was reported at its timeout come from the
 * journal, so a restart neither resets the clock nor forgets the timeout.
 */
public class BatchReporter {

    /** What is left to report, for the once mode's exit code. */
    public enum Outstanding { NONE, ONLY_TIMED_OUT, WAITING }

    private static final Logger LOG = LoggerFactory.getLogger(BatchReporter.class);

    private final Journal journal;
    private final ProviderGateway gateway;
    private final ReportWriter writer;
    private final Clock clock;
    private final Duration pendingTimeout;
    /** What the last report at the timeout showed, so that a timed-out report is rewritten only when something settled. */
    private final Map<Long, BatchProgress> lastWritten = new ConcurrentHashMap<>();

    public BatchReporter(Journal journal, ProviderGateway gateway, ReportWriter writer, Clock clock,
                         Duration pendingTimeout) {
        this.journal = journal;
        this.gateway = gateway;
        this.writer = writer;
        this.clock = clock;
        this.pendingTimeout = pendingTimeout;
    }

    /** Writes every report that is due now (the report route calls this on a timer). */
    public void reportDue() {
        for (BatchRecord batch : journal.batchesToReport()) {
            try {
                reportIfDue(batch);
            } catch (RuntimeException e) {
                LOG.error("Could not write the report of {}: {}", batch.fileName(), e.getMessage());
            }
        }
    }

    private void reportIfDue(BatchRecord batch) {
        Instant now = clock.instant();
        if (batch.error() != null) {
            write(batch, null, now, true);
            return;
        }
        BatchProgress p = journal.progress(batch.id());
        boolean halted = batch.haltReason() != null;
        if (p.count(RowState.SENDING) > 0 || (!halted && p.count(RowState.ACCEPTED) > 0)) {
            return; // still submitting
        }
        long open = p.count(RowState.PENDING) + p.count(RowState.UNKNOWN);
        if (open == 0) {
            write(batch, p, now, true);
            return;
        }
        Instant since = journal.lastSubmission(batch.id())
                .orElse(batch.submitStartedAt() != null ? batch.submitStartedAt() : batch.startedAt());
        if (Duration.between(since, now).compareTo(pendingTimeout) >= 0 && !p.equals(lastWritten.get(batch.id()))) {
            if (!batch.reportedAtTimeout()) {
                LOG.warn("Batch {}: {} orders still pending after {}; writing the report now, it will be rewritten as they settle",
                        batch.fileName(), open, pendingTimeout);
            }
            write(batch, p, now, false);
        }
    }

    private void write(BatchRecord batch, BatchProgress p, Instant now, boolean complete) {
        Long balanceAfter = balanceNow(batch);
        try {
            writer.write(batch, rows -> journal.forEachRow(batch.id(), rows), balanceAfter, now);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        journal.markReported(batch.id(), now, complete, balanceAfter);
        if (complete) {
            lastWritten.remove(batch.id());
            LOG.info("Report written for {}", batch.fileName());
        } else {
            lastWritten.put(batch.id(), p);
        }
    }

    /** The balance read now; when the provider cannot be asked, the latest one the journal knows. */
    private Long balanceNow(BatchRecord batch) {
        try {
            return gateway.checkBalance().balance();
        } catch (ProviderException e) {
            Long known = journal.latestBalance().orElse(null);
            LOG.warn("Balance could not be read for the report of {} ({}); balance_after is the latest balance known: {}",
                    batch.fileName(), e.getMessage(), known == null ? "none" : known);
            return known;
        }
    }

    public Outstanding outstanding() {
        List<BatchRecord> open = journal.batchesToReport();
        if (open.isEmpty()) {
            return Outstanding.NONE;
        }
        return open.stream().allMatch(BatchRecord::reportedAtTimeout) ? Outstanding.ONLY_TIMED_OUT : Outstanding.WAITING;
    }
}
