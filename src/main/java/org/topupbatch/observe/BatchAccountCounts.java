package org.topupbatch.observe;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.journal.AccountCounts;
import org.topupbatch.journal.BatchOverview;
import org.topupbatch.journal.RowState;
import org.topupbatch.journal.StatusJournal;

/**
 * Several accounts: the shown batches' rows per account (the journal counts them in SQL). A batch
 * whose rows are all final is counted once: a final row neither changes state nor moves to another
 * account, so its counts stand until its rows' states change (an operator's retry, say); only the
 * batches still running are counted again at each reading.
 */
final class BatchAccountCounts {

    private record Counted(Map<RowState, Long> states, Map<String, AccountCounts> accounts) {
    }

    private final StatusJournal journal;
    private Map<Long, Counted> settled = new HashMap<>();

    BatchAccountCounts(StatusJournal journal) {
        this.journal = journal;
    }

    /** Each batch's counts per account, by batch id (the batches of this reading only are kept). */
    Map<Long, Map<String, AccountCounts>> of(List<BatchOverview> batches) {
        Map<Long, Map<String, AccountCounts>> counts = new LinkedHashMap<>();
        Map<Long, Counted> stillSettled = new HashMap<>();
        for (BatchOverview batch : batches) {
            long id = batch.batch().id();
            Map<RowState, Long> states = batch.progress().counts();
            Counted known = settled.get(id);
            if (known == null || !known.states().equals(states)) {
                known = new Counted(Map.copyOf(states), journal.accountCounts(id));
            }
            if (batch.progress().allFinal()) {
                stillSettled.put(id, known);
            }
            counts.put(id, known.accounts());
        }
        settled = stillSettled;
        return counts;
    }
}
