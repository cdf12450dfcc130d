package org.topupbatch.journal;

import java.util.List;
import java.util.Optional;

/** The journal as intake sees it: batches recorded from files, and what earlier batches still hold. */
public interface IntakeJournal {

    /** Opens the single transaction in which intake records one file. */
    default BatchWriter openBatch(String fileName, char delimiter, List<String> extraHeaders, String archivedAs) {
        return openBatch(fileName, delimiter, BatchEncoding.UTF_8, extraHeaders, archivedAs, null, null);
    }

    /**
     * As {@link #openBatch(String, char, List, String)}, recording with the batch the balance read
     * at intake (its {@code balance_before} until a first order is sent), the provider serving it
     * and the encoding its file came in.
     */
    BatchWriter openBatch(String fileName, char delimiter, BatchEncoding encoding, List<String> extraHeaders,
                          String archivedAs, Long balanceAtIntake, String provider);

    /** Those of these ref_ids that an order of any batch uses, asked in as few queries as possible. */
    java.util.Set<String> ordersAmong(java.util.Collection<String> refIds);

    /**
     * For these repeat keys, the order of an earlier batch each would repeat (the latest, see
     * {@link BatchWriter#earlierOrder}), sent (or accepted, not yet sent) since {@code windowStart};
     * keys without one are left out. What {@code plan} asks, a chunk at a time.
     */
    java.util.Map<String, EarlierOrder> repeatsAmong(java.util.Collection<String> repeatKeys, long windowStart);

    /**
     * False when no batch ever recorded a row: then every look-up above answers nothing, and {@code plan}
     * leaves them out (two queries a chunk, a third of a million-row plan's time on H2). True when unknown.
     */
    default boolean holdsRows() {
        return true;
    }

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
}
