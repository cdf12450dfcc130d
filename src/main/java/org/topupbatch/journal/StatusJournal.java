package org.topupbatch.journal;

import java.util.Collection;
import java.util.List;

/** The journal as operators see it (status, progress lines, retry-failed): read only. */
public interface StatusJournal {

    /** The most recent batches, newest first, at most {@code limit}. */
    List<BatchRecord> recentBatches(int limit);

    /** A batch's rows in one of the given states, in file order, at most {@code limit}. */
    List<RowRecord> rowsOfBatch(long batchId, Collection<RowState> states, int limit);

    /** What a batch's orders cost so far: the price of its SUCCESS and PENDING rows (as its report counts it). */
    long charged(long batchId);
}
