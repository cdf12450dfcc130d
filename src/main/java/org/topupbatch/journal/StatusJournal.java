package org.topupbatch.journal;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The journal as operators see it (status, progress lines, retry-failed, dashboard, health, metrics): read only. */
public interface StatusJournal {

    /** The most recent batches, newest first, at most {@code limit}. */
    List<BatchRecord> recentBatches(int limit);

    /** A batch's rows in one of the given states, in file order, at most {@code limit}. */
    List<RowRecord> rowsOfBatch(long batchId, Collection<RowState> states, int limit);

    /** What a batch's orders cost so far: the price of its SUCCESS and PENDING rows (as its report counts it). */
    long charged(long batchId);

    /**
     * Several accounts: a batch's rows per account they stand at now, by outcome, counted in SQL (no row
     * is loaded), by account name; an account no row of the batch stands at is absent.
     */
    Map<String, AccountCounts> accountCounts(long batchId);

    /** A trivial query: throws {@link JournalException} when the journal cannot answer. */
    void ping();

    /** How many rows of every batch stand in each state. */
    Map<RowState, Long> rowsByState();

    /** The most recent batches, newest first, at most {@code limit}, with their counts and charges. */
    List<BatchOverview> batchOverviews(int limit);
}
