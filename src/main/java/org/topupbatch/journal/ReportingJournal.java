package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** The journal as reporting sees it: batches waiting for a report, their rows, and what was reported. */
public interface ReportingJournal {

    Optional<BatchRecord> batch(long batchId);

    /** Batches never reported, or reported while some orders were not final. */
    List<BatchRecord> batchesToReport();

    BatchProgress progress(long batchId);

    /** Streams a batch's rows in file order without holding them all in memory. */
    void forEachRow(long batchId, Consumer<RowRecord> action);

    /**
     * The report's customer_notified (docs/customer-messages.md): for each row of the batch that names a
     * notify_to, by row id, {@code sent}, {@code failed: <reason>} (the outbox gave the message up) or
     * empty (no message: the order did not succeed, no channel reaches the customer, or it is still
     * being tried). Empty when no row names one: the report then has no such column.
     */
    default java.util.Map<Long, String> customerNotices(long batchId) {
        return java.util.Map.of();
    }

    /** The kept {@code notify_to} of each row of the batch that names one, by row id (a retry file carries it on). */
    default java.util.Map<Long, String> notifyTargets(long batchId) {
        return java.util.Map.of();
    }

    /** Whether a customer's message of the batch written at or after {@code since} is still waiting for delivery. */
    default boolean customerMessagesWaiting(long batchId, Instant since) {
        return false;
    }

    /** Records that a report was written; {@code complete} when every row was final then. */
    default void markReported(long batchId, Instant at, boolean complete) {
        markReported(batchId, at, complete, null);
    }

    /** As {@link #markReported(long, Instant, boolean)}, with the balance the report showed (null keeps the stored one). */
    void markReported(long batchId, Instant at, boolean complete, Long balanceAfter);

    /**
     * When the batch's last order went out (the latest submission time of its rows), if any did:
     * the pending timeout counts from here, across restarts.
     */
    Optional<Instant> lastSubmission(long batchId);

    /** Every batch taken from a file of this name, oldest first. */
    List<BatchRecord> batchesForFile(String fileName);

    /**
     * The most recent balance the journal holds (read at intake, before a first order, or for a
     * report), for when the provider cannot be asked.
     */
    Optional<Long> latestBalance();

    /** {@link #latestBalance()} with when it was read, so that a reader can tell its age. */
    Optional<KnownBalance> latestKnownBalance();

    /**
     * A balance the journal holds and when it was read (not {@link ReconcileJournal.BalanceReading}, one
     * balance call's answer with when it was asked and answered, which reconciliation starts the day from).
     */
    record KnownBalance(long balance, Instant at) {
    }
}
