package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The waiting state of the repeat guard on a real database (docs/batch-files-and-reports.md#rejected-rows): a WAITING
 * row is never taken to be sent, survives a restart, and is decided by guarded updates once the
 * order it waits for is final. Subclasses open H2 and PostgreSQL.
 */
abstract class RepeatWaitsContractTest extends JournalPerTest {

    static final String KEY = "TSEL10\u001F081234567890\u001F";
    /** Another customer's key: its orders are no repeats of those of {@link #KEY}. */
    static final String OTHER_KEY = "TSEL10\u001F081299999999\u001F";

    static NewRow order(int seq, String refId) {
        return order(seq, refId, KEY);
    }

    static NewRow order(int seq, String refId, String key) {
        return new NewRow(seq, seq + 2L, refId, "TSEL10", "081234567890", null, null, List.of(), RowState.ACCEPTED,
                10_450L, null, key, null, null);
    }

    static NewRow waiting(int seq, String refId, String waitsFor) {
        return waiting(seq, refId, waitsFor, KEY);
    }

    static NewRow waiting(int seq, String refId, String waitsFor, String key) {
        return new NewRow(seq, seq + 2L, refId, "TSEL10", "081234567890", null, null, List.of(), RowState.WAITING,
                10_450L, "waits for ref_id " + waitsFor, key, null, waitsFor);
    }

    long batch(String file, NewRow... rows) {
        try (BatchWriter writer = journal.intake().openBatch(file, ',', List.of(), "archive/" + file)) {
            for (NewRow row : rows) {
                writer.add(row);
            }
            return writer.commit();
        }
    }

    RowRecord row(String refId) {
        return journal.submission().rowsInState(java.util.EnumSet.allOf(RowState.class), 1_000).stream()
                .filter(r -> r.refId().equals(refId)).findFirst().orElseThrow();
    }

    /** Sends the queued row and settles it. */
    void settle(String refId, RowState outcome) {
        long id = row(refId).id();
        assertThat(journal.submission().markSending(id, Instant.now())).isTrue();
        journal.submission().recordOutcome(id, outcome, outcome == RowState.SUCCESS ? "SN-1" : null, 10_450L,
                outcome == RowState.SUCCESS ? null : "customer account not found");
    }

    /** plan leaves its look-ups out on a journal without rows: it must say so only when none was ever recorded. */
    @Test
    void aJournalHoldsRowsOnceABatchRecordedOne() {
        assertThat(journal.intake().holdsRows()).as("a fresh journal").isFalse();
        journal.intake().recordUnreadableBatch("junk.csv", "not text", "archive/junk.csv");
        assertThat(journal.intake().holdsRows()).as("an unreadable batch records no row").isFalse();
        batch("a.csv", order(0, "A-1"));
        assertThat(journal.intake().holdsRows()).as("after a batch of one row").isTrue();
    }

    @Test
    void aWaitingRowIsNeverTakenToBeSentAndKeepsItsRefIdAndPriceSetAside() {
        long first = batch("a.csv", order(0, "A-1"));
        long second = batch("b.csv", waiting(0, "B-1", "A-1"));
        assertThat(journal.submission().nextToSubmit(10)).extracting(RowRecord::refId).containsExactly("A-1");
        long waitingId = row("B-1").id();
        assertThat(journal.submission().markSending(waitingId, Instant.now())).as("the guarded SENDING update refuses it").isFalse();
        assertThat(journal.intake().ordersAmong(List.of("B-1"))).as("its ref_id is taken").containsExactly("B-1");
        assertThat(journal.intake().reservedAmount()).isEqualTo(2 * 10_450L);
        assertThat(journal.repeatWaits().decide()).as("A-1 not final yet").isZero();
        settle("A-1", RowState.PENDING);
        assertThat(journal.repeatWaits().decide()).isZero();
        assertThat(row("B-1").state()).isEqualTo(RowState.WAITING);
        assertThat(journal.reporting().progress(second).count(RowState.WAITING)).isEqualTo(1);
        assertThat(first).isLessThan(second);
    }

    @Test
    void theEarlierOrderFailedSoTheFirstRowWaitingIsOrderedAndTheOthersWaitForIt() {
        batch("a.csv", order(0, "A-1"));
        batch("b.csv", waiting(0, "B-1", "A-1"), waiting(1, "B-2", "A-1"));
        batch("c.csv", waiting(0, "C-1", "A-1"));
        settle("A-1", RowState.FAILED);
        // a restart between the failure and the decision loses nothing: the state is in the journal
        journal.close();
        journal = open();
        assertThat(journal.repeatWaits().decide()).isEqualTo(3);
        assertThat(row("B-1").state()).isEqualTo(RowState.ACCEPTED);
        assertThat(row("B-1").message()).isNull();
        assertThat(row("B-2").state()).isEqualTo(RowState.WAITING);
        assertThat(row("B-2").message()).startsWith("waits for ref_id B-1");
        assertThat(row("C-1").state()).isEqualTo(RowState.WAITING);
        assertThat(journal.submission().nextToSubmit(10)).extracting(RowRecord::refId).containsExactly("B-1");
        assertThat(journal.repeatWaits().decide()).as("B-1 in flight: the others wait").isZero();

        settle("B-1", RowState.SUCCESS);
        assertThat(journal.repeatWaits().decide()).isEqualTo(2);
        assertThat(row("B-2").state()).isEqualTo(RowState.REJECTED);
        assertThat(row("B-2").message()).isEqualTo("repeats ref_id B-1 (line 2 of this file)" + EarlierOrder.AGAIN);
        assertThat(row("C-1").state()).isEqualTo(RowState.REJECTED);
        assertThat(row("C-1").message()).matches("repeats ref_id B-1 of batch \\d+ \\(b\\.csv\\), sent \\d{4}-\\d\\d-\\d\\d"
                + " \\d\\d:\\d\\d UTC" + java.util.regex.Pattern.quote(EarlierOrder.AGAIN));
        assertThat(journal.intake().ordersAmong(List.of("B-2", "C-1"))).as("a rejected row orders nothing").isEmpty();
        assertThat(journal.repeatWaits().decide()).isZero();
    }

    @Test
    void aRefusedOrNeverSentOrderIsNoRepeatEitherAndACancelRejectsTheWaitingRows() {
        // two customers: one order in flight per customer (A-2's customer is not A-1's)
        long a = batch("a.csv", order(0, "A-1"), order(1, "A-2", OTHER_KEY));
        batch("b.csv", waiting(0, "B-1", "A-1"), waiting(1, "B-2", "A-2", OTHER_KEY));
        long c = batch("c.csv", waiting(0, "C-1", "A-2", OTHER_KEY));
        settle("A-1", RowState.REFUSED);
        journal.submission().haltBatch(a, "INVALID_SIGNATURE"); // A-2 is never sent
        assertThat(journal.control().cancelBatch(c, Instant.now(), "cancelled by the operator")).isEqualTo(1);
        assertThat(row("C-1").state()).as("cancelled like a queued row").isEqualTo(RowState.REJECTED);
        assertThat(journal.repeatWaits().decide()).isEqualTo(2);
        assertThat(row("B-1").state()).isEqualTo(RowState.ACCEPTED);
        assertThat(row("B-2").state()).isEqualTo(RowState.ACCEPTED);
    }

    /**
     * An intake reads B-1 waiting for A-1 and writes C-1 waiting for A-1 too; before it commits, A-1
     * fails and B-1 is ordered in its place. C-1, committed then, still names A-1: it must wait for
     * B-1 (and be rejected when B-1 succeeds), not be ordered beside it.
     */
    @Test
    void aWaitingRowCommittedAfterTheDecisionWaitsForTheRowOrderedInPlaceOfTheFailedOrder() {
        batch("a.csv", order(0, "A-1"));
        batch("b.csv", waiting(0, "B-1", "A-1"));
        try (BatchWriter late = journal.intake().openBatch("c.csv", ',', List.of(), "archive/c.csv")) {
            late.add(waiting(0, "C-1", "A-1"));
            settle("A-1", RowState.FAILED);
            assertThat(journal.repeatWaits().decide()).isEqualTo(1);
            assertThat(row("B-1").state()).isEqualTo(RowState.ACCEPTED);
            late.commit();
        }
        journal.repeatWaits().decide();
        assertThat(row("C-1").state()).as("B-1 is in flight for the same customer").isEqualTo(RowState.WAITING);
        assertThat(row("C-1").message()).startsWith("waits for ref_id B-1");
        assertThat(journal.submission().nextToSubmit(10)).extracting(RowRecord::refId).containsExactly("B-1");
        settle("B-1", RowState.SUCCESS);
        journal.repeatWaits().decide();
        assertThat(row("C-1").state()).isEqualTo(RowState.REJECTED);
        assertThat(row("C-1").message()).startsWith("repeats ref_id B-1 of batch");
    }

    /** As above, with B-1 delivered before C-1 is committed: C-1 repeats a delivered order. */
    @Test
    void aWaitingRowCommittedAfterTheRowOrderedInPlaceSucceededIsRejected() {
        batch("a.csv", order(0, "A-1"));
        batch("b.csv", waiting(0, "B-1", "A-1"));
        try (BatchWriter late = journal.intake().openBatch("c.csv", ',', List.of(), "archive/c.csv")) {
            late.add(waiting(0, "C-1", "A-1"));
            settle("A-1", RowState.FAILED);
            journal.repeatWaits().decide();
            settle("B-1", RowState.SUCCESS);
            late.commit();
        }
        for (int round = 0; round < 3; round++) {
            journal.repeatWaits().decide();
        }
        assertThat(row("C-1").state()).as("never ordered beside the delivered B-1").isEqualTo(RowState.REJECTED);
        assertThat(row("C-1").message()).startsWith("repeats ref_id B-1 of batch");
        assertThat(journal.submission().nextToSubmit(10)).isEmpty();
    }

    @Test
    void twoDecidersAtOnceOrderTheWaitingRowOnce() throws Exception {
        for (int round = 0; round < 20; round++) {
            // a customer of its own each round: B-(n-1) delivered in the same millisecond as B-n was
            // journaled would count as delivered after it, and rightly reject the round's rows
            String key = KEY + "-" + round;
            batch("a" + round + ".csv", order(0, "A-" + round, key));
            batch("b" + round + ".csv", waiting(0, "B-" + round, "A-" + round, key), waiting(1, "C-" + round, "A-" + round, key));
            settle("A-" + round, RowState.FAILED);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<Integer>> decided = new ArrayList<>();
                // two deciders, each on its own connections, as two nodes on one journal would be
                for (JdbcJournal node : List.of(journal, journal)) {
                    decided.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        try {
                            return node.repeatWaits().decide();
                        } catch (JournalException lostTheRace) {
                            return 0; // a database may refuse the second of two updates of one row: nothing done
                        }
                    }));
                }
                for (Future<Integer> f : decided) {
                    f.get(30, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            journal.repeatWaits().decide();
            assertThat(List.of(row("B-" + round).state(), row("C-" + round).state())).as("round " + round)
                    .containsExactly(RowState.ACCEPTED, RowState.WAITING);
            assertThat(row("C-" + round).message()).startsWith("waits for ref_id B-" + round);
            settle("B-" + round, RowState.SUCCESS);
            journal.repeatWaits().decide();
            assertThat(row("C-" + round).state()).isEqualTo(RowState.REJECTED);
        }
    }
}
