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

    /**
     * The rows about to be added have these repeat keys ({@link NewRow#repeatKey}): a writer may
     * answer {@link #earlierOrder} for them from one look-up instead of one per row. Orders sent (or
     * accepted, when not yet sent) before {@code windowStart} (epoch millis) are not asked for.
     */
    default void expectRepeats(java.util.Collection<String> repeatKeys, long windowStart) {
    }

    /**
     * The order a row with this repeat key would repeat: an ACCEPTED row added to this writer
     * before (the first one), else the latest order not failed of an earlier batch sent (or, not yet
     * sent, accepted) since the {@code windowStart} last given to {@link #expectRepeats}; null when
     * none. A writer that keeps no journal (tests) says null.
     */
    default EarlierOrder earlierOrder(String repeatKey, long windowStart) {
        return null;
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
