package org.topupbatch.journal;

/**
 * Records one batch and all its rows in a single transaction: nothing of the batch is visible
 * until {@link #commit()}, and a crash before it leaves no trace (the file is still in the inbox).
 * Rows are written in chunks so that memory stays flat for any file size.
 */
public interface BatchWriter extends AutoCloseable {

    /**
     * True when an order row (not a rejected one) with this ref_id exists in the journal, from
     * any batch, including rows added to this writer and not yet committed.
     */
    boolean refIdTaken(String refId);

    /**
     * The line of the first row of this batch (accepted or rejected, flushed or not) with this
     * ref_id, or null: a repeated ref_id in one file is rejected even when its first row was.
     */
    Long lineInThisBatch(String refId);

    /**
     * The rows about to be added use these ref_ids: a writer may answer {@link #refIdTaken} and
     * {@link #lineInThisBatch} for them from one look-up instead of one per row. Call it before
     * adding those rows; what they add themselves is still seen.
     */
    default void expect(java.util.Collection<String> refIds) {
    }

    void add(NewRow row);

    /**
     * Turns every ACCEPTED row of this batch into REJECTED with {@code message}
     * (the all-or-nothing balance policy decides this only after the last row).
     */
    void rejectAllAccepted(String message);

    /** Commits batch and rows; returns the batch id. */
    long commit();

    /** Rolls back unless committed. */
    @Override
    void close();
}
