package org.topupbatch.journal;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The durable record of batches, rows and their orders, and (through {@link CallLog}) of recent
 * provider calls and the account's limits.
 * Every method commits before it returns (except {@link BatchWriter}, which commits on demand),
 * so that what a method reports done survives a SIGKILL right after.
 * Safe for use from several threads.
 */
public interface Journal extends CallLog, AutoCloseable {

    // ---- intake

    /** Opens the single transaction in which intake records one file. */
    default BatchWriter openBatch(String fileName, char delimiter, List<String> extraHeaders, String archivedAs) {
        return openBatch(fileName, delimiter, extraHeaders, archivedAs, null, null);
    }

    /**
     * As {@link #openBatch(String, char, List, String)}, recording with the batch the balance read
     * at intake (its {@code balance_before} until a first order is sent) and the provider serving it.
     */
    BatchWriter openBatch(String fileName, char delimiter, List<String> extraHeaders, String archivedAs,
                          Long balanceAtIntake, String provider);

    /** The most recent batch taken from a file of this name, if any. */
    Optional<BatchRecord> lastBatchForFile(String fileName);

    /**
     * What accepted rows not yet sent will cost (ACCEPTED and SENDING rows of batches not halted):
     * money the balance must still cover before a new batch can count on it.
     */
    long reservedAmount();

    /** Records a file that could not be read as a batch at all; returns the batch id. */
    default long recordUnreadableBatch(String fileName, String error, String archivedAs) {
        return recordUnreadableBatch(fileName, error, archivedAs, null);
    }

    /** As {@link #recordUnreadableBatch(String, String, String)}, with the provider serving it. */
    long recordUnreadableBatch(String fileName, String error, String archivedAs, String provider);

    // ---- submit

    /**
     * ACCEPTED rows of batches that are not halted, oldest batch first, in file order,
     * at most {@code limit}.
     */
    List<RowRecord> nextToSubmit(int limit);

    /** ACCEPTED -> SENDING, committed; false when the row was not ACCEPTED any more. */
    boolean markSending(long rowId, Instant at);

    /**
     * SENDING -> ACCEPTED, for a request that certainly never reached the provider (the connection
     * was refused, or the provider refused the credentials); false when the row was not SENDING.
     */
    boolean returnToQueue(long rowId);

    /**
     * Records what the provider said (or did not say) about a row's order: the new state with
     * serial, price and message. Fields given as null keep their stored value. A row in a final
     * state is never changed (returns false), so a late or repeated answer does no harm.
     */
    boolean recordOutcome(long rowId, RowState state, String serialNumber, Long price, String message);

    /** Stops submission of a batch; its ACCEPTED rows stay as they are. Idempotent. */
    void haltBatch(long batchId, String reason);

    /** Records the balance read just before the batch's first order, once (later calls keep the first). */
    void recordSubmitStart(long batchId, long balanceBefore, Instant at);

    // ---- track

    /** Every row in one of the given states (recovery, tracking), oldest first. */
    List<RowRecord> rowsInState(Collection<RowState> states, int limit);

    /** PENDING and UNKNOWN rows whose next check is due at or before {@code now}, soonest first. */
    List<RowRecord> dueForCheck(Instant now, int limit);

    /** Plans the next status look-up of a row. */
    void scheduleCheck(long rowId, Instant nextCheckAt, int checks);

    /** The order row (not a rejected one) with this ref_id, from any batch. */
    Optional<RowRecord> findOrder(String refId);

    /** Start-up recovery: every SENDING row becomes UNKNOWN, due for a check now. Returns how many. */
    int sendingToUnknown(Instant now);

    // ---- report

    Optional<BatchRecord> batch(long batchId);

    /** Batches never reported, or reported while some orders were not final. */
    List<BatchRecord> batchesToReport();

    BatchProgress progress(long batchId);

    /** Streams a batch's rows in file order without holding them all in memory. */
    void forEachRow(long batchId, Consumer<RowRecord> action);

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

    // ---- observe (dashboard, health, metrics): reads only

    /** A trivial query: throws {@link JournalException} when the journal cannot answer. */
    void ping();

    /** How many rows of every batch stand in each state. */
    java.util.Map<RowState, Long> rowsByState();

    /** The most recent batches, newest first, at most {@code limit}, with their counts and charges. */
    List<BatchOverview> recentBatches(int limit);

    @Override
    void close();
}
