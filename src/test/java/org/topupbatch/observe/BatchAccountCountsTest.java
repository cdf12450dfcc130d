package org.topupbatch.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
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
import org.topupbatch.testing.MutableClock;

/**
 * The dashboard counts a small running batch per account at every reading, a big one no more than a
 * tenth of the time, and a finished batch once, again only when its rows' states change.
 */
class BatchAccountCountsTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    /**
     * Answers {@link #accountCounts} from {@link #counts}, taking {@link #cost} of the clock's time,
     * and remembers which batches were asked.
     */
    static final class CountingJournal implements StatusJournal {
        final List<Long> asked = new ArrayList<>();
        final MutableClock clock = new MutableClock(T0);
        Duration cost = Duration.ofMillis(3);
        Map<String, AccountCounts> counts = Map.of("main", new AccountCounts(1, 0, 0, 1, 0, 900));

        @Override
        public Map<String, AccountCounts> accountCounts(long batchId) {
            asked.add(batchId);
            clock.advance(cost);
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

    /** A new reading (the list the journal gave) of these batches, 2 s after the last. */
    static List<BatchOverview> reading(CountingJournal journal, BatchOverview... batches) {
        journal.clock.advance(Duration.ofSeconds(2));
        return new ArrayList<>(List.of(batches));
    }

    @Test
    void a_small_running_batch_is_counted_at_every_reading_a_finished_one_once() {
        CountingJournal journal = new CountingJournal();
        BatchAccountCounts counts = new BatchAccountCounts(journal, journal.clock);
        BatchOverview running = batch(2, Map.of(RowState.ACCEPTED, 1L, RowState.SUCCESS, 1L));
        BatchOverview finished = batch(1, Map.of(RowState.SUCCESS, 2L, RowState.REJECTED, 1L));

        Map<Long, Map<String, AccountCounts>> first = counts.of(reading(journal, running, finished));
        counts.of(reading(journal, running, finished));
        counts.of(reading(journal, running, finished));

        assertThat(first.get(2L)).isEqualTo(journal.counts);
        assertThat(first.get(1L)).isEqualTo(journal.counts);
        assertThat(journal.asked).containsExactly(2L, 1L, 2L, 2L);
    }

    @Test
    void a_big_running_batch_is_counted_again_after_ten_times_its_counts_cost() {
        CountingJournal journal = new CountingJournal();
        journal.cost = Duration.ofSeconds(2); // a million rows on H2
        BatchAccountCounts counts = new BatchAccountCounts(journal, journal.clock);
        BatchOverview running = batch(1, Map.of(RowState.ACCEPTED, 1_000_000L));

        // readings 2 s apart: the first, at 2 s, counts until 4 s; those up to 22 s use that count
        for (int i = 0; i < 10; i++) {
            counts.of(reading(journal, running));
        }
        assertThat(journal.asked).as("counted at the first reading only, within 20 s of its end").hasSize(1);
        counts.of(reading(journal, running));
        assertThat(journal.asked).as("at 24 s, 20 s after the count ended").hasSize(2);
    }

    @Test
    void one_reading_is_counted_once_however_many_pages_ask() {
        CountingJournal journal = new CountingJournal();
        BatchAccountCounts counts = new BatchAccountCounts(journal, journal.clock);
        List<BatchOverview> reading = reading(journal, batch(1, Map.of(RowState.ACCEPTED, 1L)));
        counts.of(reading);
        journal.clock.advance(Duration.ofSeconds(1));
        counts.of(reading);

        assertThat(journal.asked).containsExactly(1L);
    }

    @Test
    void a_batch_counted_while_it_ran_is_counted_again_once_finished() {
        CountingJournal journal = new CountingJournal();
        journal.cost = Duration.ofSeconds(2);
        BatchAccountCounts counts = new BatchAccountCounts(journal, journal.clock);
        counts.of(reading(journal, batch(1, Map.of(RowState.ACCEPTED, 1L, RowState.SUCCESS, 1L))));
        counts.of(reading(journal, batch(1, Map.of(RowState.SUCCESS, 2L))));

        assertThat(journal.asked).as("its final counts at once, not 20 s later").containsExactly(1L, 1L);
    }

    @Test
    void a_finished_batch_is_counted_again_when_its_rows_states_change() {
        CountingJournal journal = new CountingJournal();
        BatchAccountCounts counts = new BatchAccountCounts(journal, journal.clock);
        counts.of(reading(journal, batch(1, Map.of(RowState.SUCCESS, 1L, RowState.FAILED, 1L))));
        journal.counts = Map.of("main", new AccountCounts(2, 0, 0, 0, 0, 1_800));

        // an operator's retry of the failed row: the states are not those counted
        Map<Long, Map<String, AccountCounts>> again = counts.of(reading(journal, batch(1, Map.of(RowState.SUCCESS, 2L))));

        assertThat(again.get(1L)).isEqualTo(journal.counts);
        assertThat(journal.asked).containsExactly(1L, 1L);
    }

    @Test
    void a_batch_no_longer_shown_is_forgotten() {
        CountingJournal journal = new CountingJournal();
        BatchAccountCounts counts = new BatchAccountCounts(journal, journal.clock);
        BatchOverview finished = batch(1, Map.of(RowState.SUCCESS, 1L));
        counts.of(reading(journal, finished));
        counts.of(reading(journal, batch(2, Map.of(RowState.SUCCESS, 1L))));
        counts.of(reading(journal, finished));

        assertThat(journal.asked).containsExactly(1L, 2L, 1L);
    }
}
