package org.topupbatch.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.AccountCounts;
import org.topupbatch.journal.BatchOverview;
import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.journal.StatusJournal;

/**
 * The dashboard counts a batch per account at every reading while it runs, and a finished batch once,
 * again only when its rows' states change.
 */
class BatchAccountCountsTest {

    /** Answers {@link #accountCounts} from {@link #counts}, and remembers which batches were asked. */
    static final class CountingJournal implements StatusJournal {
        final List<Long> asked = new ArrayList<>();
        Map<String, AccountCounts> counts = Map.of("main", new AccountCounts(1, 0, 0, 1, 0, 900));

        @Override
        public Map<String, AccountCounts> accountCounts(long batchId) {
            asked.add(batchId);
            return counts;
        }

        @Override
        public List<BatchRecord> recentBatches(int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<RowRecord> rowsOfBatch(long batchId, Collection<RowState> states, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long charged(long batchId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void ping() {
        }

        @Override
        public Map<RowState, Long> rowsByState() {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<org.topupbatch.journal.BatchOverview> batchOverviews(int limit) {
            throw new UnsupportedOperationException();
        }
    }

    static BatchOverview batch(long id, Map<RowState, Long> states) {
        return new BatchOverview(TopupMetricsTest.batch(id), new BatchProgress(id, states), 0);
    }

    @Test
    void a_running_batch_is_counted_at_every_reading_a_finished_one_once() {
        CountingJournal journal = new CountingJournal();
        BatchAccountCounts counts = new BatchAccountCounts(journal);
        BatchOverview running = batch(2, Map.of(RowState.ACCEPTED, 1L, RowState.SUCCESS, 1L));
        BatchOverview finished = batch(1, Map.of(RowState.SUCCESS, 2L, RowState.REJECTED, 1L));

        Map<Long, Map<String, AccountCounts>> first = counts.of(List.of(running, finished));
        counts.of(List.of(running, finished));
        counts.of(List.of(running, finished));

        assertThat(first.get(2L)).isEqualTo(journal.counts);
        assertThat(first.get(1L)).isEqualTo(journal.counts);
        assertThat(journal.asked).containsExactly(2L, 1L, 2L, 2L);
    }

    @Test
    void a_finished_batch_is_counted_again_when_its_rows_states_change() {
        CountingJournal journal = new CountingJournal();
        BatchAccountCounts counts = new BatchAccountCounts(journal);
        counts.of(List.of(batch(1, Map.of(RowState.SUCCESS, 1L, RowState.FAILED, 1L))));
        journal.counts = Map.of("main", new AccountCounts(2, 0, 0, 0, 0, 1_800));

        // an operator's retry of the failed row: the states are not those counted
        Map<Long, Map<String, AccountCounts>> again = counts.of(List.of(batch(1, Map.of(RowState.SUCCESS, 2L))));

        assertThat(again.get(1L)).isEqualTo(journal.counts);
        assertThat(journal.asked).containsExactly(1L, 1L);
    }

    @Test
    void a_batch_no_longer_shown_is_forgotten() {
        CountingJournal journal = new CountingJournal();
        BatchAccountCounts counts = new BatchAccountCounts(journal);
        BatchOverview finished = batch(1, Map.of(RowState.SUCCESS, 1L));
        counts.of(List.of(finished));
        counts.of(List.of(batch(2, Map.of(RowState.SUCCESS, 1L))));
        counts.of(List.of(finished));

        assertThat(journal.asked).containsExactly(1L, 2L, 1L);
    }
}
