package org.topupbatch.journal;

import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.ProviderCall;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every journal database must do. Subclasses open a real database (H2 file, PostgreSQL);
 * each test starts from an empty one.
 */
abstract class JournalContractTest extends JournalPerTest {

    static final Instant T0 = Instant.parse("2026-01-02T03:04:05.678Z");

    // ---- helpers

    static NewRow accepted(int seq, String refId) {
        return new NewRow(seq, seq + 2L, refId, "ML86", "12345678", "1234", 25_000L,
                List.of("x" + seq, "=cell"), RowState.ACCEPTED, 20_000L, null);
    }

    static NewRow rejected(int seq, String refId, String why) {
        return new NewRow(seq, seq + 2L, refId, "ML86", "12345678", null, null,
                List.of(), RowState.REJECTED, null, why);
    }

    long batchOf(NewRow... rows) {
        try (BatchWriter writer = journal.intake().openBatch("b.csv", ',', List.of("note", "cost"), "archive/b.csv")) {
            for (NewRow row : rows) {
                writer.add(row);
            }
            return writer.commit();
        }
    }

    RowRecord order(String refId) {
        return journal.tracking().findOrder(refId).orElseThrow();
    }

    List<RowRecord> rowsOf(long batchId) {
        List<RowRecord> rows = new ArrayList<>();
        journal.reporting().forEachRow(batchId, rows::add);
        return rows;
    }

    // ---- intake

    @Test
    void writerRecordsBatchAndRowsAsGiven() {
        long id;
        try (BatchWriter writer = journal.intake().openBatch("orders;1.csv", ';', List.of("note", "cost centre"), "archive/1.csv")) {
            writer.add(accepted(0, "R-0"));
            writer.add(rejected(1, "R-0", "ref_id repeats line 2"));
            writer.add(new NewRow(2, 7, "R-2", "FF50", "999", null, null, null, RowState.ACCEPTED, 15_000L, null));
            id = writer.commit();
        }
        BatchRecord batch = journal.reporting().batch(id).orElseThrow();
        assertThat(batch.fileName()).isEqualTo("orders;1.csv");
        assertThat(batch.delimiter()).isEqualTo(';');
        assertThat(batch.extraHeaders()).containsExactly("note", "cost centre");
        assertThat(batch.archivedAs()).isEqualTo("archive/1.csv");
        assertThat(batch.error()).isNull();
        assertThat(batch.haltReason()).isNull();
        assertThat(batch.balanceBefore()).isNull();
        assertThat(batch.startedAt()).isNotNull();
        assertThat(batch.reportedAt()).isNull();
        assertThat(batch.reportComplete()).isFalse();

        List<RowRecord> rows = rowsOf(id);
        assertThat(rows).extracting(RowRecord::seq).containsExactly(0, 1, 2);
        RowRecord first = rows.get(0);
        assertThat(first.batchId()).isEqualTo(id);
        assertThat(first.line()).isEqualTo(2);
        assertThat(first.refId()).isEqualTo("R-0");
        assertThat(first.productSku()).isEqualTo("ML86");
        assertThat(first.customerNo()).isEqualTo("12345678");
        assertThat(first.customerNoZone()).isEqualTo("1234");
        assertThat(first.maxPrice()).isEqualTo(25_000L);
        assertThat(first.extras()).containsExactly("x0", "=cell");
        assertThat(first.state()).isEqualTo(RowState.ACCEPTED);
        assertThat(first.price()).isEqualTo(20_000L);
        assertThat(first.serialNumber()).isNull();
        assertThat(first.sentAt()).isNull();
        assertThat(first.checks()).isZero();
        assertThat(first.nextCheckAt()).isNull();
        assertThat(first.createdAt()).isNotNull().isEqualTo(first.updatedAt());
        assertThat(rows.get(1).state()).isEqualTo(RowState.REJECTED);
        assertThat(rows.get(1).message()).isEqualTo("ref_id repeats line 2");
        assertThat(rows.get(1).maxPrice()).isNull();
        assertThat(rows.get(2).extras()).isEmpty();
        assertThat(rows.get(2).line()).isEqualTo(7);

        BatchProgress progress = journal.reporting().progress(id);
        assertThat(progress.rows()).isEqualTo(3);
        assertThat(progress.count(RowState.ACCEPTED)).isEqualTo(2);
        assertThat(progress.count(RowState.REJECTED)).isEqualTo(1);
        assertThat(progress.allFinal()).isFalse();
    }

    @Test
    void nothingOfABatchIsVisibleBeforeCommitAndNothingAfterCloseWithoutCommit() {
        int rows = JdbcBatchWriter.CHUNK * 2 + 17; // some rows flushed to the database, some not
        try (BatchWriter writer = journal.intake().openBatch("big.csv", ',', List.of(), "archive/big.csv")) {
            for (int i = 0; i < rows; i++) {
                writer.add(accepted(i, "V-" + i));
            }
            assertThat(writer.refIdTaken("V-0")).isTrue();
            assertThat(journal.submission().nextToSubmit(10)).isEmpty();
            assertThat(journal.tracking().findOrder("V-0")).isEmpty();
            assertThat(journal.reporting().batchesToReport()).isEmpty();
            long id = writer.commit();
            assertThat(journal.reporting().progress(id).count(RowState.ACCEPTED)).isEqualTo(rows);
        }

        try (BatchWriter writer = journal.intake().openBatch("lost.csv", ',', List.of(), "archive/lost.csv")) {
            for (int i = 0; i < rows; i++) {
                writer.add(accepted(i, "L-" + i));
            }
            assertThat(journal.tracking().findOrder("L-0")).isEmpty();
            // closed without commit: the crash case
        }
        assertThat(journal.tracking().findOrder("L-0")).isEmpty();
        assertThat(journal.reporting().batchesToReport()).extracting(BatchRecord::fileName).containsExactly("big.csv");
        try (BatchWriter writer = journal.intake().openBatch("again.csv", ',', List.of(), "archive/again.csv")) {
            assertThat(writer.refIdTaken("L-0")).isFalse();
            assertThat(writer.refIdTaken("L-" + (rows - 1))).isFalse();
            assertThat(writer.refIdTaken("V-" + (rows - 1))).isTrue();
        }
    }

    @Test
    void refIdTakenSeesUnflushedFlushedAndCommittedOrdersButNotRejectedRows() {
        batchOf(accepted(0, "OLD-1"), rejected(1, "OLD-REJ", "bad sku"));
        try (BatchWriter writer = journal.intake().openBatch("new.csv", ',', List.of(), "archive/new.csv")) {
            assertThat(writer.refIdTaken("OLD-1")).isTrue();
            assertThat(writer.refIdTaken("OLD-REJ")).isFalse();
            assertThat(writer.refIdTaken("NEW-0")).isFalse();
            writer.add(accepted(0, "NEW-0"));
            assertThat(writer.refIdTaken("NEW-0")).as("unflushed").isTrue();
            for (int i = 1; i <= JdbcBatchWriter.CHUNK; i++) {
                writer.add(accepted(i, "NEW-" + i));
            }
            assertThat(writer.refIdTaken("NEW-0")).as("flushed, uncommitted").isTrue();
            writer.add(rejected(JdbcBatchWriter.CHUNK + 1, "REJ-X", "max_price"));
            assertThat(writer.refIdTaken("REJ-X")).isFalse();
            assertThat(writer.refIdTaken(null)).isFalse();
            writer.commit();
        }
    }

    @Test
    void expectedRefIdsAreAnsweredFromOneLookUpAsSingleLookUpsWouldBe() {
        batchOf(accepted(0, "OLD-1"), rejected(1, "OLD-REJ", "bad sku"));
        try (BatchWriter writer = journal.intake().openBatch("chunks.csv", ',', List.of(), "archive/chunks.csv")) {
            writer.add(rejected(0, "FIRST-REJ", "bad sku")); // not yet sent: expect sends it first
            writer.add(accepted(1, "FIRST-OK"));
            List<String> chunk = new java.util.ArrayList<>(List.of("OLD-1", "OLD-REJ", "FIRST-REJ", "FIRST-OK", "N-1", "N-1", ""));
            for (int i = 0; i < JdbcBatchWriter.CHUNK + 5; i++) {
                chunk.add("MANY-" + i); // more ref_ids than one query takes
            }
            writer.expect(chunk);
            assertThat(writer.refIdTaken("OLD-1")).as("an earlier batch's order").isTrue();
            assertThat(writer.refIdTaken("OLD-REJ")).as("an earlier batch's rejected row").isFalse();
            assertThat(writer.lineInThisBatch("OLD-1")).isNull();
            assertThat(writer.lineInThisBatch("FIRST-REJ")).as("this file's rejected row, sent").isEqualTo(2L);
            assertThat(writer.refIdTaken("FIRST-REJ")).isFalse();
            assertThat(writer.refIdTaken("FIRST-OK")).as("this file's order, sent").isTrue();
            assertThat(writer.lineInThisBatch("FIRST-OK")).isEqualTo(3L);
            assertThat(writer.refIdTaken("N-1")).isFalse();
            assertThat(writer.lineInThisBatch("N-1")).isNull();
            writer.add(accepted(2, "N-1"));
            assertThat(writer.refIdTaken("N-1")).as("added after the look-up").isTrue();
            assertThat(writer.lineInThisBatch("N-1")).isEqualTo(4L);
            assertThat(writer.refIdTaken("MANY-" + (JdbcBatchWriter.CHUNK + 4))).isFalse();
            for (int i = 0; i < JdbcBatchWriter.CHUNK; i++) {
                writer.add(accepted(3 + i, "MANY-" + i)); // sends the rows: the look-up's answers would go stale
            }
            assertThat(writer.refIdTaken("MANY-0")).as("sent since the look-up").isTrue();
            assertThat(writer.lineInThisBatch("MANY-1")).isEqualTo(6L);
            assertThat(writer.refIdTaken("N-1")).isTrue();
            writer.commit();
        }
    }

    static NewRow keyed(int seq, String refId, RowState state, String key) {
        return new NewRow(seq, seq + 2L, refId, "TSEL10", "081234567890", null, null, List.of(), state,
                state == RowState.ACCEPTED ? 10_000L : null, state == RowState.ACCEPTED ? null : "no", key);
    }

    @Test
    void earlierOrderFindsOrdersNotFailedWithinTheWindowAndThisFilesAcceptedRows() {
        long now = System.currentTimeMillis();
        long windowStart = now - Duration.ofHours(24).toMillis();
        long b1 = batchOf(keyed(0, "K-SENT-1", RowState.ACCEPTED, "K-SENT"), keyed(1, "K-SENT-2", RowState.ACCEPTED, "K-SENT"),
                keyed(2, "K-OLD-1", RowState.ACCEPTED, "K-OLD"), keyed(3, "K-FAILED-1", RowState.ACCEPTED, "K-FAILED"),
                keyed(4, "K-ACC-1", RowState.ACCEPTED, "K-ACC"), keyed(5, "K-REJ-1", RowState.REJECTED, "K-REJ"),
                keyed(6, "K-OK-1", RowState.ACCEPTED, "K-OK"));
        journal.submission().markSending(order("K-SENT-1").id(), Instant.ofEpochMilli(now - 3_600_000));
        journal.submission().markSending(order("K-SENT-2").id(), Instant.ofEpochMilli(now - 1_800_000));
        journal.submission().markSending(order("K-OLD-1").id(), Instant.ofEpochMilli(now - Duration.ofHours(25).toMillis()));
        journal.submission().markSending(order("K-FAILED-1").id(), Instant.ofEpochMilli(now - 3_600_000));
        journal.submission().recordOutcome(order("K-FAILED-1").id(), RowState.FAILED, null, null, "refunded");
        journal.submission().markSending(order("K-OK-1").id(), Instant.ofEpochMilli(now - 7_200_000));
        journal.submission().recordOutcome(order("K-OK-1").id(), RowState.SUCCESS, "SN", 10_000L, null);
        long b2 = batchOf(keyed(0, "K-HALT-1", RowState.ACCEPTED, "K-HALT"));
        journal.submission().haltBatch(b2, "INVALID_SIGNATURE");

        List<String> keys = List.of("K-SENT", "K-OLD", "K-FAILED", "K-ACC", "K-REJ", "K-OK", "K-HALT", "K-NEW");
        java.util.Map<String, EarlierOrder> found = journal.intake().repeatsAmong(keys, windowStart);
        assertThat(found.keySet()).containsExactlyInAnyOrder("K-SENT", "K-ACC", "K-OK");
        assertThat(found.get("K-SENT")).as("the latest of two").isEqualTo(
                new EarlierOrder("K-SENT-2", b1, "b.csv", 3, now - 1_800_000, true, false, RowState.SENDING, "K-SENT-2"));
        assertThat(found.get("K-ACC").sent()).isFalse();
        assertThat(found.get("K-ACC").refId()).isEqualTo("K-ACC-1");
        assertThat(found.get("K-OK").at()).isEqualTo(now - 7_200_000);
        assertThat(found.get("K-OK").succeeded()).isTrue();
        assertThat(journal.intake().repeatsAmong(keys, now - 2_000_000)).as("a shorter window")
                .containsOnlyKeys("K-SENT", "K-ACC");

        try (BatchWriter writer = journal.intake().openBatch("again.csv", ',', List.of(), "archive/again.csv")) {
            writer.expectRepeats(keys, windowStart);
            for (String key : keys) {
                assertThat(writer.earlierOrder(key, windowStart)).as(key).isEqualTo(found.get(key));
            }
            writer.add(keyed(0, "N-0", RowState.ACCEPTED, "K-NEW"));
            writer.add(keyed(1, "N-1", RowState.REJECTED, "K-NEW2"));
            writer.add(keyed(2, "N-2", RowState.ACCEPTED, "K-SENT"));
            assertThat(writer.earlierOrder("K-NEW", windowStart)).as("unsent").isEqualTo(EarlierOrder.inThisFile("N-0", 2));
            assertThat(writer.earlierOrder("K-NEW2", windowStart)).as("a rejected row orders nothing").isNull();
            assertThat(writer.earlierOrder("K-SENT", windowStart)).as("this file's row first")
                    .isEqualTo(EarlierOrder.inThisFile("N-2", 4));
            for (int i = 3; i < JdbcBatchWriter.CHUNK + 3; i++) {
                writer.add(keyed(i, "N-" + i, RowState.ACCEPTED, "K-MANY-" + i));
            }
            assertThat(writer.earlierOrder("K-NEW", windowStart)).as("sent, uncommitted").isEqualTo(EarlierOrder.inThisFile("N-0", 2));
            writer.expectRepeats(List.of("K-SENT", "K-MANY-7", "K-NEW2"), windowStart);
            assertThat(writer.earlierOrder("K-SENT", windowStart)).isEqualTo(EarlierOrder.inThisFile("N-2", 4));
            assertThat(writer.earlierOrder("K-MANY-7", windowStart)).isEqualTo(EarlierOrder.inThisFile("N-7", 9));
            assertThat(writer.earlierOrder("K-NEW2", windowStart)).isNull();
            writer.rejectAllAccepted("all-or-nothing");
            assertThat(writer.earlierOrder("K-NEW", windowStart)).as("rejected after all").isNull();
        }
    }

    @Test
    void lineInThisBatchFindsTheFirstRowOfThisFileRejectedOnesToo() {
        batchOf(accepted(0, "OTHER-1"));
        try (BatchWriter writer = journal.intake().openBatch("lines.csv", ',', List.of(), "archive/lines.csv")) {
            writer.add(rejected(0, "R-0", "bad sku"));
            assertThat(writer.lineInThisBatch("R-0")).as("unflushed rejected row").isEqualTo(2L);
            for (int i = 1; i <= JdbcBatchWriter.CHUNK; i++) {
                writer.add(accepted(i, "A-" + i));
            }
            writer.add(rejected(JdbcBatchWriter.CHUNK + 1, "R-0", "repeat"));
            assertThat(writer.lineInThisBatch("R-0")).as("flushed, first line wins").isEqualTo(2L);
            assertThat(writer.lineInThisBatch("A-7")).isEqualTo(9L);
            assertThat(writer.lineInThisBatch("OTHER-1")).as("another batch").isNull();
            assertThat(writer.lineInThisBatch("NOPE")).isNull();
            assertThat(writer.lineInThisBatch("")).isNull();
        }
    }

    @Test
    void anOrderRefIdIsUniqueAcrossBatchesWhileRejectedRowsMayRepeatIt() {
        batchOf(accepted(0, "U-1"));
        assertThatThrownBy(() -> batchOf(accepted(0, "U-1"))).isInstanceOf(JournalException.class);
        // the failed batch left nothing behind
        assertThat(journal.reporting().batchesToReport()).hasSize(1);

        long b2 = batchOf(rejected(0, "U-1", "ref_id already taken"), rejected(1, "U-1", "again"));
        long b3 = batchOf(rejected(0, "U-1", "still taken"));
        assertThat(journal.reporting().progress(b2).count(RowState.REJECTED)).isEqualTo(2);
        assertThat(journal.reporting().progress(b3).count(RowState.REJECTED)).isEqualTo(1);
        assertThat(order("U-1").batchId()).isNotIn(b2, b3);
    }

    @Test
    void rejectAllAcceptedRejectsOnlyThisBatchsAcceptedRowsAndFreesTheirRefIds() {
        long other = batchOf(accepted(0, "KEEP-1"));
        long id;
        try (BatchWriter writer = journal.intake().openBatch("all.csv", ',', List.of(), "archive/all.csv")) {
            for (int i = 0; i < JdbcBatchWriter.CHUNK + 3; i++) {
                writer.add(accepted(i, "ALL-" + i));
            }
            writer.add(rejected(JdbcBatchWriter.CHUNK + 3, "ALL-0", "repeats"));
            writer.rejectAllAccepted("insufficient balance for the whole batch");
            assertThat(writer.refIdTaken("ALL-0")).isFalse();
            id = writer.commit();
        }
        assertThat(journal.reporting().progress(id).count(RowState.REJECTED)).isEqualTo(JdbcBatchWriter.CHUNK + 4);
        assertThat(journal.reporting().progress(id).allFinal()).isTrue();
        RowRecord first = rowsOf(id).get(0);
        assertThat(first.message()).isEqualTo("insufficient balance for the whole batch");
        assertThat(first.price()).isNull();
        assertThat(rowsOf(id).get(JdbcBatchWriter.CHUNK + 3).message()).isEqualTo("repeats");
        assertThat(journal.tracking().findOrder("ALL-0")).isEmpty();
        assertThat(journal.reporting().progress(other).count(RowState.ACCEPTED)).isEqualTo(1);
        batchOf(accepted(0, "ALL-0")); // the ref_id is free again
    }

    @Test
    void writerRefusesUseAfterCommitAndNewRowsInOtherStates() {
        try (BatchWriter writer = journal.intake().openBatch("w.csv", ',', List.of(), "archive/w.csv")) {
            assertThatThrownBy(() -> writer.add(new NewRow(0, 2, "S", "ML86", "1", null, null, List.of(),
                    RowState.SUCCESS, null, null))).isInstanceOf(IllegalArgumentException.class);
            writer.commit();
            assertThatThrownBy(() -> writer.add(accepted(1, "S"))).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void unreadableBatchIsRecordedReportedAndNeverSubmitted() {
        long id = journal.intake().recordUnreadableBatch("junk.csv", "no usable header", "archive/junk.csv");
        BatchRecord batch = journal.reporting().batch(id).orElseThrow();
        assertThat(batch.error()).isEqualTo("no usable header");
        assertThat(batch.fileName()).isEqualTo("junk.csv");
        assertThat(batch.archivedAs()).isEqualTo("archive/junk.csv");
        assertThat(batch.extraHeaders()).isEmpty();
        assertThat(journal.reporting().progress(id).rows()).isZero();
        assertThat(journal.reporting().progress(id).allFinal()).isTrue();
        assertThat(journal.reporting().batchesToReport()).extracting(BatchRecord::id).containsExactly(id);
        assertThat(journal.submission().nextToSubmit(10)).isEmpty();
        assertThat(journal.reporting().batch(id + 1000)).isEmpty();
    }

    // ---- submit

    @Test
    void nextToSubmitGivesAcceptedRowsOfUnhaltedBatchesInTurnEachInFileOrder() {
        long b1 = batchOf(accepted(0, "A-0"), rejected(1, "A-1", "no"), accepted(2, "A-2"), accepted(3, "A-3"));
        long b2 = batchOf(accepted(0, "B-0"), accepted(1, "B-1"));
        long b3 = batchOf(accepted(0, "C-0"));
        journal.submission().haltBatch(b2, "INVALID_SIGNATURE");
        journal.submission().markSending(order("A-2").id(), T0);

        // two active batches (b2 is halted): their rows in turn, each batch in file order
        assertThat(journal.submission().nextToSubmit(10)).extracting(RowRecord::refId).containsExactly("A-0", "C-0", "A-3");
        assertThat(journal.submission().nextToSubmit(2)).extracting(RowRecord::refId).containsExactly("A-0", "C-0");
        assertThat(journal.submission().nextToSubmit(10)).extracting(RowRecord::batchId).containsExactly(b1, b3, b1);
    }

    @Test
    void markSendingMovesAcceptedToSendingOnce() {
        batchOf(accepted(0, "M-1"), rejected(1, "M-2", "no"));
        long id = order("M-1").id();
        assertThat(journal.submission().markSending(id, T0)).isTrue();
        assertThat(journal.submission().markSending(id, T0.plusSeconds(1))).isFalse();
        RowRecord row = order("M-1");
        assertThat(row.state()).isEqualTo(RowState.SENDING);
        assertThat(row.sentAt()).isEqualTo(T0);
        long rejectedId = rowsOf(row.batchId()).get(1).id();
        assertThat(journal.submission().markSending(rejectedId, T0)).isFalse();
        assertThat(journal.submission().markSending(999_999L, T0)).isFalse();
    }

    @Test
    void aFirstCheckIsPlannedUnlessAHintCountedOneWhileTheRowWasSent() {
        batchOf(accepted(0, "F-1"), accepted(1, "F-2"));
        long fresh = order("F-1").id();
        long hinted = order("F-2").id();
        journal.submission().markSending(fresh, T0);
        journal.submission().markSending(hinted, T0);
        journal.tracking().scheduleCheck(hinted, T0.plusMillis(200), 1); // a webhook's hint, before the answer
        for (long id : new long[] {fresh, hinted}) {
            journal.submission().recordOutcome(id, RowState.PENDING, null, null, "pending");
            journal.submission().scheduleFirstCheck(id, T0.plusSeconds(5));
        }
        assertThat(order("F-1").nextCheckAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(order("F-1").checks()).isZero();
        assertThat(order("F-2").nextCheckAt()).isEqualTo(T0.plusMillis(200));
        assertThat(order("F-2").checks()).isEqualTo(1);
    }

    @Test
    void recordOutcomeFollowsTheStateMachineAndKeepsStoredValuesForNulls() {
        batchOf(accepted(0, "O-1"), accepted(1, "O-2"), accepted(2, "O-3"));
        long id = order("O-1").id();
        assertThat(journal.submission().recordOutcome(id, RowState.SUCCESS, "SN", 1L, "x")).as("never sent").isFalse();

        journal.submission().markSending(id, T0);
        assertThat(journal.submission().recordOutcome(id, RowState.PENDING, null, 19_500L, "processing")).isTrue();
        journal.submission().scheduleCheck(id, T0.plusSeconds(30), 1);
        assertThat(journal.submission().recordOutcome(id, RowState.UNKNOWN, null, null, "timeout")).as("pending stays pending").isFalse();
        assertThat(journal.submission().recordOutcome(id, RowState.PENDING, null, null, null)).isTrue();
        RowRecord pending = order("O-1");
        assertThat(pending.state()).isEqualTo(RowState.PENDING);
        assertThat(pending.price()).isEqualTo(19_500L);
        assertThat(pending.message()).isEqualTo("processing");
        assertThat(pending.nextCheckAt()).isEqualTo(T0.plusSeconds(30));

        assertThat(journal.submission().recordOutcome(id, RowState.SUCCESS, "SN-123", null, null)).isTrue();
        RowRecord success = order("O-1");
        assertThat(success.state()).isEqualTo(RowState.SUCCESS);
        assertThat(success.serialNumber()).isEqualTo("SN-123");
        assertThat(success.price()).isEqualTo(19_500L);
        assertThat(success.message()).isEqualTo("processing");
        assertThat(success.nextCheckAt()).as("final: nothing more to check").isNull();

        // a final row never changes again, whatever arrives late
        for (RowState late : List.of(RowState.FAILED, RowState.PENDING, RowState.UNKNOWN, RowState.REFUSED, RowState.SUCCESS)) {
            assertThat(journal.submission().recordOutcome(id, late, "OTHER", 1L, "late")).isFalse();
        }
        assertThat(order("O-1")).isEqualTo(success);

        long refused = order("O-2").id();
        journal.submission().markSending(refused, T0);
        assertThat(journal.submission().recordOutcome(refused, RowState.REFUSED, null, null, "INVALID_CUSTOMER_NO")).isTrue();
        assertThat(journal.submission().recordOutcome(refused, RowState.SUCCESS, "SN", 1L, null)).isFalse();
        assertThat(order("O-2").price()).as("refused keeps the validation price; the report leaves it out").isEqualTo(20_000L);

        long unknown = order("O-3").id();
        journal.submission().markSending(unknown, T0);
        assertThat(journal.submission().recordOutcome(unknown, RowState.UNKNOWN, null, null, "HTTP 504")).isTrue();
        assertThat(journal.submission().recordOutcome(unknown, RowState.UNKNOWN, null, null, "still unknown")).isTrue();
        assertThat(journal.submission().recordOutcome(unknown, RowState.FAILED, null, 20_000L, "refunded")).isTrue();
        assertThat(order("O-3").state()).isEqualTo(RowState.FAILED);

        for (RowState notAnOutcome : List.of(RowState.ACCEPTED, RowState.SENDING, RowState.REJECTED)) {
            assertThatThrownBy(() -> journal.submission().recordOutcome(unknown, notAnOutcome, null, null, null))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void rowFinalListenerHearsOfEveryCommitThatMadeRowsOfABatchFinalAndOfNothingElse() {
        List<Long> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        journal.onRowsFinal(heard::add);
        long id = batchOf(accepted(0, "E-1"), accepted(1, "E-2"), accepted(2, "E-3"), rejected(3, "E-4", "bad"));
        assertThat(heard).as("the batch's rejected rows are final once it is committed").containsExactly(id);
        heard.clear();

        journal.submission().markSending(order("E-1").id(), T0);
        journal.submission().recordOutcome(order("E-1").id(), RowState.PENDING, null, 20_000L, "pending");
        journal.submission().recordOutcome(order("E-1").id(), RowState.UNKNOWN, null, null, "no answer");
        assertThat(heard).as("sending, pending, unknown are not final").isEmpty();

        journal.submission().recordOutcome(order("E-1").id(), RowState.SUCCESS, "SN-1", 20_000L, "ok");
        journal.submission().recordOutcome(order("E-1").id(), RowState.FAILED, null, null, "late answer");
        assertThat(heard).as("one event for the settled row; none for a late answer that changed nothing")
                .containsExactly(id);
        heard.clear();

        journal.submission().markSending(order("E-2").id(), T0);
        journal.submission().recordOutcome(order("E-2").id(), RowState.REFUSED, null, null, "refused");
        journal.submission().haltBatch(id, "INSUFFICIENT_BALANCE");
        journal.submission().haltBatch(id, "again");
        long unreadable = journal.intake().recordUnreadableBatch("junk.csv", "not a CSV file", "archive/junk.csv");
        assertThat(heard).as("refused row, first halt, unreadable file").containsExactly(id, id, unreadable);
    }

    @Test
    void haltBatchKeepsTheFirstReason() {
        long id = batchOf(accepted(0, "H-1"));
        journal.submission().haltBatch(id, "INVALID_API_KEY");
        journal.submission().haltBatch(id, "something later");
        assertThat(journal.reporting().batch(id).orElseThrow().haltReason()).isEqualTo("INVALID_API_KEY");
        assertThat(order("H-1").state()).isEqualTo(RowState.ACCEPTED);
    }

    @Test
    void recordSubmitStartKeepsTheFirstBalance() {
        long id = batchOf(accepted(0, "S-1"));
        journal.submission().recordSubmitStart(id, 1_000_000L, T0);
        journal.submission().recordSubmitStart(id, 5L, T0.plusSeconds(60));
        BatchRecord batch = journal.reporting().batch(id).orElseThrow();
        assertThat(batch.balanceBefore()).isEqualTo(1_000_000L);
        assertThat(batch.submitStartedAt()).isEqualTo(T0);
    }

    // ---- track

    @Test
    void pendingOrdersOfEarlierRunsAreDueSoonAfterAStart() {
        batchOf(accepted(0, "P-0"), accepted(1, "P-1"), accepted(2, "P-2"), accepted(3, "P-3"));
        for (int i = 0; i < 4; i++) {
            journal.submission().markSending(order("P-" + i).id(), T0);
        }
        journal.submission().recordOutcome(order("P-0").id(), RowState.PENDING, null, null, null);
        journal.submission().recordOutcome(order("P-1").id(), RowState.PENDING, null, null, null);
        journal.submission().recordOutcome(order("P-2").id(), RowState.UNKNOWN, null, null, null);
        journal.submission().recordOutcome(order("P-3").id(), RowState.SUCCESS, "SN", null, null);
        journal.submission().scheduleCheck(order("P-0").id(), T0.plusSeconds(300), 3); // waiting for its webhook
        journal.submission().scheduleCheck(order("P-1").id(), T0.plusSeconds(2), 1);   // already due sooner
        journal.submission().scheduleCheck(order("P-2").id(), T0.plusSeconds(300), 3);

        assertThat(journal.tracking().pendingDueBy(T0.plusSeconds(5))).isEqualTo(1);

        assertThat(journal.tracking().dueForCheck(T0.plusSeconds(5), 10)).extracting(RowRecord::refId).containsExactly("P-1", "P-0");
        assertThat(order("P-0").checks()).as("the back-off goes on from where it was").isEqualTo(3);
        assertThat(order("P-1").nextCheckAt()).isEqualTo(T0.plusSeconds(2));
    }

    @Test
    void rowsInStateAndDueForCheckAndScheduleCheck() {
        batchOf(accepted(0, "T-0"), accepted(1, "T-1"), accepted(2, "T-2"), accepted(3, "T-3"), accepted(4, "T-4"));
        for (int i = 0; i < 4; i++) {
            journal.submission().markSending(order("T-" + i).id(), T0);
        }
        journal.submission().recordOutcome(order("T-0").id(), RowState.PENDING, null, null, null);
        journal.submission().recordOutcome(order("T-1").id(), RowState.PENDING, null, null, null);
        journal.submission().recordOutcome(order("T-2").id(), RowState.UNKNOWN, null, null, null);
        journal.submission().scheduleCheck(order("T-0").id(), T0.plusSeconds(10), 1);
        journal.submission().scheduleCheck(order("T-1").id(), T0.plusSeconds(100), 2);

        assertThat(journal.submission().rowsInState(EnumSet.of(RowState.PENDING, RowState.UNKNOWN), 10))
                .extracting(RowRecord::refId).containsExactly("T-0", "T-1", "T-2");
        assertThat(journal.submission().rowsInState(EnumSet.of(RowState.SENDING), 10)).extracting(RowRecord::refId).containsExactly("T-3");
        assertThat(journal.submission().rowsInState(EnumSet.of(RowState.ACCEPTED), 10)).extracting(RowRecord::refId).containsExactly("T-4");
        assertThat(journal.submission().rowsInState(List.of(), 10)).isEmpty();
        assertThat(journal.submission().rowsInState(EnumSet.allOf(RowState.class), 2)).hasSize(2);

        // no planned check counts as due now; soonest first
        assertThat(journal.tracking().dueForCheck(T0, 10)).extracting(RowRecord::refId).containsExactly("T-2");
        assertThat(journal.tracking().dueForCheck(T0.plusSeconds(10), 10)).extracting(RowRecord::refId).containsExactly("T-2", "T-0");
        assertThat(journal.tracking().dueForCheck(T0.plusSeconds(1000), 10)).extracting(RowRecord::refId).containsExactly("T-2", "T-0", "T-1");
        assertThat(journal.tracking().dueForCheck(T0.plusSeconds(1000), 1)).extracting(RowRecord::refId).containsExactly("T-2");
        RowRecord t1 = order("T-1");
        assertThat(t1.checks()).isEqualTo(2);
        assertThat(t1.nextCheckAt()).isEqualTo(T0.plusSeconds(100));

        journal.submission().recordOutcome(order("T-0").id(), RowState.SUCCESS, "SN", null, null);
        assertThat(journal.tracking().dueForCheck(T0.plusSeconds(1000), 10)).extracting(RowRecord::refId).containsExactly("T-2", "T-1");
    }

    @Test
    void anAccountScopeNarrowsWhatIsDueAndWhatIsSent() {
        batchOf(accepted(0, "S-0"), accepted(1, "S-1"), accepted(2, "S-2"));
        batchOf(accepted(0, "S-3"));
        journal.submission().markSending(order("S-0").id(), T0);
        journal.submission().recordOutcome(order("S-0").id(), RowState.PENDING, null, null, null);
        journal.submission().markSending(order("S-1").id(), T0);
        journal.submission().recordOutcome(order("S-1").id(), RowState.UNKNOWN, null, null, null);
        // rows at no account: the active node's ("others"), never a node's that leads only "main"
        AccountScope others = new AccountScope(List.of(), true, List.of("main"));
        AccountScope mainOnly = new AccountScope(List.of("main"), false, List.of("main"));

        assertThat(journal.tracking().dueForCheckAt(T0.plusSeconds(1000), 10, others)).extracting(RowRecord::refId)
                .containsExactly("S-0", "S-1");
        assertThat(journal.tracking().dueForCheckAt(T0.plusSeconds(1000), 10, mainOnly)).isEmpty();
        assertThat(journal.submission().nextToSubmitAt(10, others)).extracting(RowRecord::refId).containsExactlyInAnyOrder("S-2", "S-3");
        assertThat(journal.submission().nextToSubmitAt(10, mainOnly)).isEmpty();
    }

    @Test
    void findOrderFindsOrderRowsOnly() {
        batchOf(accepted(0, "F-1"), rejected(1, "F-2", "bad"));
        assertThat(journal.tracking().findOrder("F-1")).get().extracting(RowRecord::state).isEqualTo(RowState.ACCEPTED);
        assertThat(journal.tracking().findOrder("F-2")).isEmpty();
        assertThat(journal.tracking().findOrder("nope")).isEmpty();
    }

    @Test
    void sendingToUnknownTurnsEverySendingRowIntoADueUnknownOne() {
        batchOf(accepted(0, "R-0"), accepted(1, "R-1"), accepted(2, "R-2"));
        journal.submission().markSending(order("R-0").id(), T0);
        journal.submission().markSending(order("R-1").id(), T0);
        journal.submission().recordOutcome(order("R-1").id(), RowState.PENDING, null, null, null);
        Instant restart = T0.plus(1, ChronoUnit.HOURS);

        assertThat(journal.tracking().sendingToUnknown(restart)).isEqualTo(1);
        RowRecord r0 = order("R-0");
        assertThat(r0.state()).isEqualTo(RowState.UNKNOWN);
        assertThat(r0.nextCheckAt()).isEqualTo(restart);
        assertThat(journal.tracking().dueForCheck(restart, 10)).extracting(RowRecord::refId).containsExactlyInAnyOrder("R-0", "R-1");
        assertThat(journal.tracking().sendingToUnknown(restart)).isZero();
        assertThat(order("R-2").state()).isEqualTo(RowState.ACCEPTED);
    }

    // ---- report

    @Test
    void batchesToReportUntilReportedComplete() {
        long b1 = batchOf(accepted(0, "P-1"));
        long b2 = batchOf(accepted(0, "P-2"));
        assertThat(journal.reporting().batchesToReport()).extracting(BatchRecord::id).containsExactly(b1, b2);

        journal.reporting().markReported(b1, T0, false);
        assertThat(journal.reporting().batchesToReport()).extracting(BatchRecord::id).containsExactly(b1, b2);
        assertThat(journal.reporting().batch(b1).orElseThrow().reportedAt()).isEqualTo(T0);

        journal.reporting().markReported(b1, T0.plusSeconds(5), true);
        assertThat(journal.reporting().batchesToReport()).extracting(BatchRecord::id).containsExactly(b2);
        BatchRecord reported = journal.reporting().batch(b1).orElseThrow();
        assertThat(reported.reportedAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(reported.reportComplete()).isTrue();
    }

    @Test
    void intakeRecordsBalanceAndProviderUntilTheFirstOrderReadsItsOwnBalance() {
        long id;
        BatchEncoding utf16 = new BatchEncoding(java.nio.charset.StandardCharsets.UTF_16LE, true);
        try (BatchWriter writer = journal.intake().openBatch("i.csv", '\t', utf16, List.of(), "archive/i.csv", 500_000L, "api.example.id")) {
            writer.add(accepted(0, "I-1"));
            id = writer.commit();
        }
        long unreadable = journal.intake().recordUnreadableBatch("u.csv", "not a batch", "archive/u.csv", "sandbox");
        assertThat(journal.reporting().batch(id).orElseThrow()).extracting(BatchRecord::balanceBefore, BatchRecord::provider,
                BatchRecord::encoding, BatchRecord::delimiter).containsExactly(500_000L, "api.example.id", utf16, '\t');
        assertThat(journal.reporting().batch(unreadable).orElseThrow().encoding()).isEqualTo(BatchEncoding.UTF_8);
        assertThat(journal.reporting().batch(unreadable).orElseThrow().provider()).isEqualTo("sandbox");

        journal.submission().recordSubmitStart(id, 480_000L, T0);
        assertThat(journal.reporting().batch(id).orElseThrow().balanceBefore()).isEqualTo(480_000L);
    }

    @Test
    void latestBalanceIsTheNewestReadingOfAnyKind() {
        assertThat(journal.reporting().latestBalance()).isEmpty();
        Instant now = Instant.now();
        long id;
        try (BatchWriter writer = journal.intake().openBatch("l.csv", ',', BatchEncoding.UTF_8, List.of(), "archive/l.csv", 300L, "sandbox")) {
            writer.add(accepted(0, "L-1"));
            id = writer.commit();
        }
        assertThat(journal.reporting().latestBalance()).contains(300L);
        journal.submission().recordSubmitStart(id, 290L, now.plusSeconds(3600));
        assertThat(journal.reporting().latestBalance()).contains(290L);
        journal.reporting().markReported(id, now.plusSeconds(7200), false, 270L);
        assertThat(journal.reporting().latestBalance()).contains(270L);
        journal.reporting().markReported(id, now.plusSeconds(7300), true, null);
        assertThat(journal.reporting().batch(id).orElseThrow().balanceAfter()).as("null keeps the stored balance").isEqualTo(270L);
        assertThat(journal.reporting().batch(id).orElseThrow().reportedAtTimeout()).isFalse();
    }

    @Test
    void lastSubmissionIsTheLatestSentAtOfTheBatchRows() {
        long id = batchOf(accepted(0, "T-1"), accepted(1, "T-2"), accepted(2, "T-3"));
        assertThat(journal.reporting().lastSubmission(id)).isEmpty();
        journal.submission().markSending(order("T-2").id(), T0.plusSeconds(30));
        journal.submission().markSending(order("T-1").id(), T0);
        journal.submission().recordOutcome(order("T-1").id(), RowState.SUCCESS, "SN", 1L, "ok");
        assertThat(journal.reporting().lastSubmission(id)).contains(T0.plusSeconds(30));
    }

    @Test
    void batchesForFileListsEveryBatchOfThatName() {
        long b1 = batchOf(accepted(0, "N-1"));
        long b2 = batchOf(accepted(0, "N-2"));
        assertThat(journal.reporting().batchesForFile("b.csv")).extracting(BatchRecord::id).containsExactly(b1, b2);
        assertThat(journal.reporting().batchesForFile("B.csv")).isEmpty();
    }

    @Test
    void progressCountsEveryState() {
        long id = batchOf(accepted(0, "G-0"), accepted(1, "G-1"), accepted(2, "G-2"), rejected(3, "G-3", "no"));
        journal.submission().markSending(order("G-0").id(), T0);
        journal.submission().recordOutcome(order("G-0").id(), RowState.SUCCESS, "SN", 1L, null);
        journal.submission().markSending(order("G-1").id(), T0);
        journal.submission().recordOutcome(order("G-1").id(), RowState.FAILED, null, null, "x");
        BatchProgress p = journal.reporting().progress(id);
        assertThat(p.count(RowState.SUCCESS)).isEqualTo(1);
        assertThat(p.count(RowState.FAILED)).isEqualTo(1);
        assertThat(p.count(RowState.ACCEPTED)).isEqualTo(1);
        assertThat(p.count(RowState.REJECTED)).isEqualTo(1);
        assertThat(p.count(RowState.PENDING)).isZero();
        assertThat(p.allFinal()).isFalse();
        journal.submission().markSending(order("G-2").id(), T0);
        journal.submission().recordOutcome(order("G-2").id(), RowState.REFUSED, null, null, "x");
        assertThat(journal.reporting().progress(id).allFinal()).isTrue();
        assertThat(journal.reporting().progress(id + 99).rows()).isZero();
    }

    static NewRow routed(int seq, String refId, long price) {
        RowRoute route = new RowRoute(List.of(new RowRoute.Stop("main", "ML86", price),
                new RowRoute.Stop("dfz", "ML86D", price + 500)));
        return new NewRow(seq, seq + 2L, refId, "ML86", "12345678", null, null, List.of(), RowState.ACCEPTED, price,
                null, null, route);
    }

    @Test
    void accountCountsTellEachAccountsRowsByOutcomeAndThoseMovedThere() {
        long id = batchOf(routed(0, "A-0", 1_000), routed(1, "A-1", 1_000), routed(2, "A-2", 1_000),
                routed(3, "A-3", 1_000), routed(4, "A-4", 1_000), rejected(5, "A-5", "no"));
        long other = batchOf(routed(0, "A-9", 7_000));
        journal.submission().markSending(order("A-0").id(), T0);
        journal.submission().recordOutcome(order("A-0").id(), RowState.SUCCESS, "SN", 1_000L, null);
        journal.submission().markSending(order("A-1").id(), T0);
        journal.submission().recordOutcome(order("A-1").id(), RowState.PENDING, null, 1_000L, null);
        // main refused A-2 outright after sending, A-3 unsent: both go to dfz, at dfz's price
        journal.submission().markSending(order("A-2").id(), 1, T0);
        assertThat(journal.submission().fallBack(order("A-2").id(), 1, 1_500, "moved")).isTrue();
        journal.submission().markSending(order("A-2").id(), 2, T0);
        journal.submission().recordOutcome(order("A-2").id(), RowState.SUCCESS, "SN2", 1_500L, null);
        assertThat(journal.submission().moveOnUnsent(order("A-3").id(), 1, 1_500, "moved")).isTrue();
        journal.submission().markSending(order("A-4").id(), T0);
        journal.submission().recordOutcome(order("A-4").id(), RowState.REFUSED, null, null, "bad number");

        Map<String, AccountCounts> counts = journal.status().accountCounts(id);
        assertThat(counts.keySet()).containsExactly("dfz", "main");
        // success, failed, pending, queued, moved here, charged (success and pending)
        assertThat(counts.get("main")).isEqualTo(new AccountCounts(1, 1, 1, 0, 0, 2_000));
        assertThat(counts.get("dfz")).isEqualTo(new AccountCounts(1, 0, 0, 1, 2, 1_500));
        assertThat(counts.get("main").submitted()).isEqualTo(3);
        assertThat(journal.status().accountCounts(other)).containsExactly(Map.entry("main", new AccountCounts(0, 0, 0, 1, 0, 0)));
        assertThat(journal.status().accountCounts(other + 99)).isEmpty();
        assertThat(journal.status().accountCounts(batchOf(accepted(0, "S-1")))).as("a single account's rows have no route").isEmpty();
    }

    // ---- provider calls

    @Test
    void providerCallsAreReservedCompletedListedAndPruned() {
        long balance = journal.callLog().reserveCall(T0, "balance");
        journal.callLog().completeCall(balance, T0.plusMillis(300), 200);
        long order = journal.callLog().reserveCall(T0.plusSeconds(30), "order");
        long lost = journal.callLog().reserveCall(T0.plusSeconds(30), "order");
        journal.callLog().completeCall(lost, T0.plusSeconds(35), 0);
        long history = journal.callLog().reserveCall(T0.plusSeconds(61), "history");

        assertThat(journal.callLog().callsSince(T0)).containsExactly(
                new ProviderCall(balance, T0, "balance", T0.plusMillis(300), 200),
                new ProviderCall(order, T0.plusSeconds(30), "order", null, null),
                new ProviderCall(lost, T0.plusSeconds(30), "order", T0.plusSeconds(35), 0),
                new ProviderCall(history, T0.plusSeconds(61), "history", null, null));
        assertThat(journal.callLog().callsSince(T0.plusSeconds(30))).hasSize(3);
        assertThat(journal.callLog().countCallsSince(T0.plusSeconds(30))).isEqualTo(3);
        assertThat(journal.callLog().callsSince(T0.plusSeconds(62))).isEmpty();

        journal.callLog().pruneCalls(T0.plusSeconds(30));
        assertThat(journal.callLog().callsSince(Instant.EPOCH)).extracting(ProviderCall::id).containsExactly(order, lost, history);
    }

    @Test
    void theAccountsLimitsAreRememberedOnceAndReplaced() {
        assertThat(journal.callLog().rememberedLimits()).isEmpty();
        journal.callLog().rememberLimits(new AccountLimits(60, 10_000, 5, T0));
        journal.callLog().rememberLimits(new AccountLimits(300, 50_000, 1234, T0.plusSeconds(600)));
        journal.close();

        journal = open();
        assertThat(journal.callLog().rememberedLimits()).contains(new AccountLimits(300, 50_000, 1234, T0.plusSeconds(600)));
    }

    // ---- durability and concurrency

    @Test
    void everythingSurvivesClosingAndReopening() {
        long id = batchOf(accepted(0, "D-0"), accepted(1, "D-1"), rejected(2, "D-2", "no"));
        journal.submission().markSending(order("D-0").id(), T0);
        journal.submission().recordOutcome(order("D-0").id(), RowState.PENDING, null, 19_000L, "processing");
        journal.submission().scheduleCheck(order("D-0").id(), T0.plusSeconds(60), 3);
        journal.submission().haltBatch(id, "balance gone");
        journal.submission().recordSubmitStart(id, 777L, T0);
        journal.reporting().markReported(id, T0, false);
        journal.callLog().completeCall(journal.callLog().reserveCall(T0, "order"), T0, 200);
        List<RowRecord> before = rowsOf(id);
        BatchRecord batchBefore = journal.reporting().batch(id).orElseThrow();
        journal.close();

        journal = open();
        assertThat(rowsOf(id)).isEqualTo(before);
        assertThat(journal.reporting().batch(id)).contains(batchBefore);
        assertThat(journal.callLog().callsSince(Instant.EPOCH)).extracting(ProviderCall::answeredAt).containsExactly(T0);
        assertThat(order("D-0").checks()).isEqualTo(3);
        // migrations ran once: the reopened schema still enforces one order per ref_id
        assertThatThrownBy(() -> batchOf(accepted(0, "D-1"))).isInstanceOf(JournalException.class);
    }

    @Test
    void concurrentMarkSendingOnOneRowHasExactlyOneWinner() throws Exception {
        int rows = 200;
        NewRow[] batch = new NewRow[rows];
        for (int i = 0; i < rows; i++) {
            batch[i] = accepted(i, "C-" + i);
        }
        long batchId = batchOf(batch);
        List<Long> ids = rowsOf(batchId).stream().map(RowRecord::id).toList();

        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            int wins = 0;
            for (long rowId : ids) {
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<Boolean>> racers = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    racers.add(pool.submit(() -> {
                        start.await(5, TimeUnit.SECONDS);
                        return journal.submission().markSending(rowId, T0);
                    }));
                }
                int won = 0;
                for (Future<Boolean> racer : racers) {
                    won += racer.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(won).as("row %d", rowId).isEqualTo(1);
                wins += won;
            }
            assertThat(wins).isEqualTo(rows);
        } finally {
            pool.shutdownNow();
        }
        assertThat(journal.reporting().progress(batchId).count(RowState.SENDING)).isEqualTo(rows);
    }

    /** Not a timed assertion: prints how long a 200,000-row file takes, for the record. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES) // 576 s once on PostgreSQL with 7 builds on 2 cores: over the 10-minute default
    void aLargeBatchGoesThroughTheWriterWithFlatMemory() {
        int rows = 100_000; // large enough to show a flat heap (BENCHMARKS.md's intake scale takes a million)
        Runtime runtime = Runtime.getRuntime();
        long start = System.nanoTime();
        long id;
        long maxUsed = 0;
        try (BatchWriter writer = journal.intake().openBatch("large.csv", ',', List.of("note"), "archive/large.csv")) {
            for (int i = 0; i < rows; i++) {
                String ref = "BIG-" + i;
                if (writer.refIdTaken(ref)) {
                    throw new AssertionError("unexpectedly taken: " + ref);
                }
                writer.add(i % 50 == 49 ? rejected(i, ref, "max_price") : accepted(i, ref));
                if (i % 20_000 == 0) {
                    maxUsed = Math.max(maxUsed, runtime.totalMemory() - runtime.freeMemory());
                }
            }
            id = writer.commit();
        }
        long writeMs = (System.nanoTime() - start) / 1_000_000;
        long readStart = System.nanoTime();
        long[] seen = {0, -1};
        journal.reporting().forEachRow(id, row -> {
            assertThat(row.seq()).isEqualTo(seen[1] + 1);
            seen[1] = row.seq();
            seen[0]++;
        });
        long readMs = (System.nanoTime() - readStart) / 1_000_000;
        System.out.printf("[journal %s] %,d rows written with refIdTaken per row in %,d ms, streamed back in %,d ms,"
                + " heap used at most ~%,d MB while writing%n", getClass().getSimpleName(), rows, writeMs, readMs,
                maxUsed >> 20);
        assertThat(seen[0]).isEqualTo(rows);
        assertThat(journal.reporting().progress(id).count(RowState.REJECTED)).isEqualTo(rows / 50);
        assertThat(journal.reporting().progress(id).rows()).isEqualTo(rows);
    }

    // ---- money guards and the operator's hand (issue 19, issue 20)

    @Test
    void a_held_product_waits_in_the_queue_is_released_and_its_rows_rejected_after_the_wait() {
        long batch = batchOf(accepted(0, "O-1"), accepted(1, "O-2"));
        journal.outages().holdProduct("ML86", T0, "PRODUCT_UNAVAILABLE: down");
        journal.outages().holdProduct("ML86", T0.plusSeconds(60), "PRODUCT_UNAVAILABLE: still down");
        assertThat(journal.submission().nextToSubmit(10)).isEmpty();
        assertThat(journal.outages().productOutages()).singleElement().satisfies(o -> {
            assertThat(o.since()).as("a second hold keeps the outage's start").isEqualTo(T0);
            assertThat(o.held()).isTrue();
            assertThat(o.rowsWaiting()).isEqualTo(2);
            assertThat(o.message()).isEqualTo("PRODUCT_UNAVAILABLE: still down");
        });
        journal.outages().releaseProduct("ML86");
        assertThat(journal.submission().nextToSubmit(10)).hasSize(2);
        journal.outages().holdProduct("ML86", T0.plusSeconds(120), "again");
        assertThat(journal.outages().productOutages().get(0).since()).isEqualTo(T0);
        assertThat(journal.outages().rejectWaitingRows("ML86", "unavailable since 03:04 UTC; not sent")).isEqualTo(2);
        assertThat(rowsOf(batch)).allSatisfy(r -> {
            assertThat(r.state()).isEqualTo(RowState.REJECTED);
            assertThat(r.message()).startsWith("unavailable since");
        });
        assertThat(journal.tracking().findOrder("O-1")).as("a rejected row's ref_id is free again").isEmpty();
        journal.outages().endOutage("ML86");
        assertThat(journal.outages().productOutages()).isEmpty();
    }

    @Test
    void a_row_rejected_unsent_only_while_it_is_accepted() {
        batchOf(accepted(0, "U-1"), accepted(1, "U-2"));
        long sending = order("U-2").id();
        assertThat(journal.submission().markSending(sending, T0)).isTrue();
        assertThat(journal.submission().rejectUnsent(order("U-1").id(), "price 30000 now, above max_price 25000")).isTrue();
        assertThat(journal.submission().rejectUnsent(sending, "price")).as("a row on the wire is an order").isFalse();
        assertThat(order("U-2").state()).isEqualTo(RowState.SENDING);
    }

    @Test
    void a_held_batch_sends_nothing_until_resumed_and_a_cancel_rejects_only_what_was_not_sent() {
        long batch = batchOf(accepted(0, "H-1"), accepted(1, "H-2"), accepted(2, "H-3"));
        long first = order("H-1").id();
        assertThat(journal.submission().markSending(first, T0)).isTrue();
        assertThat(journal.control().holdBatch(batch, T0)).isTrue();
        assertThat(journal.control().holdBatch(batch, T0)).as("held already").isFalse();
        assertThat(journal.submission().nextToSubmit(10)).isEmpty();
        assertThat(journal.submission().markSending(order("H-2").id(), T0)).as("a row taken before the hold stays").isFalse();
        assertThat(journal.reporting().batch(batch).orElseThrow().heldAt()).isEqualTo(T0);
        assertThat(journal.control().heldAndCancelled()).containsExactly(1, 0, 2);
        assertThat(journal.control().resumeBatch(batch)).isTrue();
        assertThat(journal.control().resumeBatch(batch)).isFalse();
        assertThat(journal.submission().nextToSubmit(10)).extracting(RowRecord::refId).containsExactly("H-2", "H-3");

        assertThat(journal.control().cancelBatch(batch, T0.plusSeconds(5), "cancelled by the operator; not sent")).isEqualTo(2);
        assertThat(journal.control().cancelBatch(batch, T0.plusSeconds(6), "again")).isEqualTo(-1);
        assertThat(order("H-1").state()).as("the order on the wire is tracked").isEqualTo(RowState.SENDING);
        assertThat(rowsOf(batch)).filteredOn(r -> !r.refId().equals("H-1")).allSatisfy(r -> {
            assertThat(r.state()).isEqualTo(RowState.REJECTED);
            assertThat(r.message()).startsWith("cancelled");
        });
        assertThat(journal.control().holdBatch(batch, T0)).as("nothing to hold once cancelled").isFalse();
        // the one on the wire certainly never arrived: back in the queue, then rejected as cancelled
        assertThat(journal.submission().returnToQueue(first)).isTrue();
        assertThat(journal.control().cancelledWithRowsQueued()).extracting(BatchRecord::id).containsExactly(batch);
        assertThat(journal.submission().nextToSubmit(10)).isEmpty();
        assertThat(journal.control().rejectQueuedOfCancelled(batch, "cancelled late")).isEqualTo(1);
        assertThat(journal.control().cancelledWithRowsQueued()).isEmpty();
        assertThat(journal.control().cancelledSince(T0)).extracting(BatchRecord::id).containsExactly(batch);
        assertThat(journal.control().cancelledSince(T0.plusSeconds(6))).isEmpty();
        assertThat(journal.control().heldAndCancelled()).containsExactly(0, 1, 0);
    }

    @Test
    void a_cancel_racing_the_senders_leaves_every_row_either_sent_or_rejected() throws Exception {
        NewRow[] rows = new NewRow[200];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = accepted(i, "R-" + i);
        }
        long batch = batchOf(rows);
        List<Long> ids = rowsOf(batch).stream().map(RowRecord::id).toList();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> senders = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int offset = t;
                senders.add(pool.submit(() -> {
                    int sent = 0;
                    for (int i = offset; i < ids.size(); i += 3) {
                        sent += journal.submission().markSending(ids.get(i), T0) ? 1 : 0;
                    }
                    return sent;
                }));
            }
            Future<Integer> cancel = pool.submit(() -> journal.control().cancelBatch(batch, T0, "cancelled; not sent"));
            int sent = 0;
            for (Future<Integer> f : senders) {
                sent += f.get(60, TimeUnit.SECONDS);
            }
            int rejected = cancel.get(60, TimeUnit.SECONDS);
            assertThat(sent + rejected).isEqualTo(rows.length);
            assertThat(rowsOf(batch)).allSatisfy(r -> assertThat(r.state()).isIn(RowState.SENDING, RowState.REJECTED));
            assertThat(rowsOf(batch).stream().filter(r -> r.state() == RowState.SENDING).count()).isEqualTo(sent);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void active_batches_share_the_queue_in_turn_each_in_file_order() {
        NewRow[] big = new NewRow[10];
        for (int i = 0; i < big.length; i++) {
            big[i] = accepted(i, "BIG-" + i);
        }
        batchOf(big);
        batchOf(accepted(0, "SMALL-0"), accepted(1, "SMALL-1"));
        assertThat(journal.submission().nextToSubmit(6)).extracting(RowRecord::refId)
                .containsExactly("BIG-0", "SMALL-0", "BIG-1", "SMALL-1", "BIG-2");
        assertThat(journal.submission().nextToSubmit(1)).extracting(RowRecord::refId).containsExactly("BIG-0");
    }
}
