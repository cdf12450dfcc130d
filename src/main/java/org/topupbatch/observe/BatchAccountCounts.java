package org.topupbatch.observe;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.journal.AccountCounts;
import org.topupbatch.journal.BatchOverview;
import org.topupbatch.journal.RowState;
import org.topupbatch.journal.StatusJournal;

/**
 * The shown batches' rows per named account, as the journal counts them in SQL (one
 * grouped query per batch). The query reads every row of its batch, which takes seconds for a batch
 * of a million rows, so it is not asked more than it must be:
 * <ul>
 * <li>a batch whose rows are all final is counted once: a final row neither changes state nor moves
 * to another account, so its counts stand until its rows' states change (an operator's retry, say);</li>
 * <li>a running batch is counted again once {@link #SPACING} times as long as its last count took has
 * passed: at every reading for a small batch, about every 20 s for a million rows, so the counts keep
 * the journal busy a tenth of the time at the most;</li>
 * <li>the same reading is counted once, however many pages ask.</li>
 * </ul>
 */
final class BatchAccountCounts {

    /** How many times as long as its count took a running batch's counts stand. */
    static final int SPACING = 10;

    private record Counted(Map<RowState, Long> states, Map<String, AccountCounts> accounts, Instant until) {
    }

    private final StatusJournal journal;
    private final Clock clock;
    private Map<Long, Counted> counted = new HashMap<>();
    private List<BatchOverview> lastBatches;
    private Map<Long, Map<String, AccountCounts>> last = Map.of();

    BatchAccountCounts(StatusJournal journal, Clock clock) {
        this.journal = journal;
        this.clock = clock;
    }

    /** Each batch's counts per account, by batch id (only the batches given are kept). */
    synchronized Map<Long, Map<String, AccountCounts>> of(List<BatchOverview> batches) {
        if (batches == lastBatches) {
            return last;
        }
        Map<Long, Map<String, AccountCounts>> counts = new LinkedHashMap<>();
        Map<Long, Counted> kept = new HashMap<>();
        for (BatchOverview batch : batches) {
            long id = batch.batch().id();
            Map<RowState, Long> states = batch.progress().counts();
            boolean settled = batch.progress().allFinal();
            Counted known = counted.get(id);
            boolean stands = known != null && (settled ? known.states().equals(states) && known.until() == null
                    : clock.instant().isBefore(known.until() == null ? Instant.MIN : known.until()));
            if (!stands) {
                Instant start = clock.instant();
                Map<String, AccountCounts> accounts = journal.accountCounts(id);
                Instant end = clock.instant();
                known = new Counted(Map.copyOf(states), accounts,
                        settled ? null : end.plus(Duration.between(start, end).multipliedBy(SPACING)));
            }
            kept.put(id, known);
            counts.put(id, known.accounts());
        }
        counted = kept;
        lastBatches = batches;
        last = counts;
        return counts;
    }

    /** The counts last given (while the journal does not answer). */
    synchronized Map<Long, Map<String, AccountCounts>> last() {
        return last;
    }
}
