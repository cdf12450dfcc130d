package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;

/**
 * The operator's hand on a batch ({@code hold}, {@code resume}, {@code cancel}): written by the
 * commands, from any process, and obeyed by whichever process submits, because the next row is
 * marked SENDING only while its batch is neither held nor cancelled ({@link SubmissionJournal#markSending}).
 */
public interface BatchControl {

    /** Holds the batch's sending from {@code at}; false when it was held or cancelled already. */
    boolean holdBatch(long batchId, Instant at);

    /** Lets a held batch's rows go again; false when it was not held. */
    boolean resumeBatch(long batchId);

    /**
     * Cancels the batch at {@code at}: its rows not yet sent become REJECTED with {@code message}, in
     * the same transaction as the mark (rows already SENDING or answered stay orders, tracked as usual).
     * Returns the rows rejected, or -1 when the batch was cancelled already.
     */
    int cancelBatch(long batchId, Instant at, String message);

    /**
     * Rejects the rows still queued of a batch already cancelled (a cancel cut short by a crash of an
     * older version, a row returned to the queue after the cancel); returns how many.
     */
    int rejectQueuedOfCancelled(long batchId, String message);

    /** The message of a row a cancel kept from being sent. */
    static String cancelledMessage(Instant at) {
        return "cancelled by the operator at " + java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
                .withZone(java.time.ZoneOffset.UTC).format(at) + "; not sent";
    }

    /** Cancelled batches that still have queued rows (a cancel written by an older version, say). */
    List<BatchRecord> cancelledWithRowsQueued();

    /**
     * For the metrics: how many batches an operator holds now, how many were ever cancelled, and how
     * many rows wait in the held ones.
     */
    long[] heldAndCancelled();

    /** Batches cancelled at or after {@code since}, oldest first. */
    List<BatchRecord> cancelledSince(Instant since);
}
