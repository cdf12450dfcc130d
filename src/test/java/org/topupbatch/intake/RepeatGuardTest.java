package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.EarlierOrder;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;
import org.topupbatch.settings.BalancePolicy;

/** The repeat guard of the planner (docs/batch-files-and-reports.md#rejected-rows, topup.repeat-window). */
class RepeatGuardTest {

    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    final RowValidator validator = new RowValidator(new TestCatalog(), CustomerRules.loadDefault());
    final InMemoryBatchWriter writer = new InMemoryBatchWriter();

    PlanSummary plan(Duration window, long balance, String csv) throws IOException {
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)))) {
            return new BatchPlanner(validator, BalancePolicy.BEST_EFFORT, window, Clock.fixed(NOW, ZoneOffset.UTC))
                    .plan(reader, writer, balance);
        }
    }

    static final String AGAIN = ", for the same product and customer; write yes in allow_repeat to order it again";
    static final String WAITS = ": the same product and customer, still in flight; ordered if that order fails, rejected if it succeeds";

    static EarlierOrder delivered(String refId, long batch, String file, long line, Instant sentAt) {
        return new EarlierOrder(refId, batch, file, line, sentAt.toEpochMilli(), true, false, RowState.SUCCESS, refId);
    }

    @Test
    void aLaterRowOfTheFileWithTheSamePhoneInAnyFormWaitsForTheFirstRowsOutcomeNamingItsRefIdAndLine() throws IOException {
        PlanSummary s = plan(Duration.ofHours(24), 1_000_000, """
                ref_id,product_sku,customer_no,customer_no_zone
                P1,TSEL10,081234567890,
                P2,TSEL10,6281234567890,
                P3,TSEL10,+62 812-3456-7890,
                P4,ISAT10,081234567890,
                P5,ML86,123456,2001
                P6,ML86,123456,2002
                P7,ML86,123456,2001
                """);
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::state, NewRow::message, NewRow::waitsFor).containsExactly(
                tuple("P1", RowState.ACCEPTED, null, null),
                tuple("P2", RowState.WAITING, "waits for ref_id P1 (line 2 of this file)" + WAITS, "P1"),
                tuple("P3", RowState.WAITING, "waits for ref_id P1 (line 2 of this file)" + WAITS, "P1"),
                tuple("P4", RowState.ACCEPTED, null, null), // another product
                tuple("P5", RowState.ACCEPTED, null, null),
                tuple("P6", RowState.ACCEPTED, null, null), // another zone
                tuple("P7", RowState.WAITING, "waits for ref_id P5 (line 6 of this file)" + WAITS, "P5"));
        assertThat(s.accepted()).as("a waiting row may be ordered: acceptable, its price set aside").isEqualTo(7);
        assertThat(s.totalPrice()).isEqualTo(writer.rows.stream().mapToLong(NewRow::price).sum());
        assertThat(writer.rows.get(1).repeatKey()).isEqualTo(writer.rows.get(0).repeatKey());
        assertThat(writer.repeatWindowStarts).containsExactly(NOW.minus(Duration.ofHours(24)).toEpochMilli());
    }

    @Test
    void gameIdsAreComparedAsWrittenAndARejectedFirstRowIsNoOrderToRepeat() throws IOException {
        plan(Duration.ofHours(24), 1_000_000, """
                ref_id,product_sku,customer_no,customer_no_zone,max_price
                G1,FF100,0812345678,,
                G2,FF100,62812345678,,
                G3,TSEL10,081234567890,,100
                G4,TSEL10,081234567890,,
                """);
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::state).containsExactly(
                tuple("G1", RowState.ACCEPTED), tuple("G2", RowState.ACCEPTED),
                tuple("G3", RowState.REJECTED), tuple("G4", RowState.ACCEPTED));
    }

    @Test
    void allowRepeatYesTrueOrOneInAnyCaseOrdersTheRowAllTheSameAndKeepsTheColumn() throws IOException {
        plan(Duration.ofHours(24), 1_000_000, """
                ref_id,product_sku,customer_no,Allow_Repeat
                A1,TSEL10,081234567890,
                A2,TSEL10,081234567890,YES
                A3,TSEL10,081234567890,True
                A4,TSEL10,081234567890,1
                A5,TSEL10,081234567890,no
                A6,TSEL10,081234567890,y
                """);
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::state).containsExactly(
                tuple("A1", RowState.ACCEPTED), tuple("A2", RowState.ACCEPTED), tuple("A3", RowState.ACCEPTED),
                tuple("A4", RowState.ACCEPTED), tuple("A5", RowState.WAITING), tuple("A6", RowState.WAITING));
        assertThat(writer.rows.get(1).extras()).containsExactly("YES");
    }

    @Test
    void aDeliveredOrderOfAnEarlierBatchRejectsTheRepeatNamingItsRefIdAndOneInFlightMakesItWait() throws IOException {
        writer.journalRepeats.put(RepeatKey.of("TSEL10", "081234567890", "", true),
                delivered("TB-1", 3, "orders-2026-11-21.csv", 2, Instant.parse("2026-11-21T13:15:42Z")));
        writer.journalRepeats.put(RepeatKey.of("ISAT10", "081234567890", "", true), new EarlierOrder("TB-2", 4,
                "late.csv", 5, Instant.parse("2026-11-22T09:00:00Z").toEpochMilli(), false, false, RowState.ACCEPTED, "TB-2"));
        writer.journalRepeats.put(RepeatKey.of("XL10", "081734567890", "", true), new EarlierOrder("TB-3", 4,
                "late.csv", 6, Instant.parse("2026-11-22T09:01:00Z").toEpochMilli(), true, false, RowState.PENDING, "TB-3"));
        // itself waiting for TB-0: the new row waits for the same order, not for a row that waits
        writer.journalRepeats.put(RepeatKey.of("ML86", "123456", "2001", false), new EarlierOrder("TB-4", 5,
                "later.csv", 2, Instant.parse("2026-11-22T09:02:00Z").toEpochMilli(), false, false, RowState.WAITING, "TB-0"));
        plan(Duration.ofHours(24), 1_000_000, """
                ref_id,product_sku,customer_no,customer_no_zone,max_price
                N1,TSEL10,+6281234567890,,
                N2,TSEL10,081234567890,,100
                N3,ISAT10,6281234567890,,
                N4,XL10,081734567890,,
                N5,ML86,123456,2001,
                """);
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::state, NewRow::message, NewRow::waitsFor).containsExactly(
                tuple("N1", RowState.REJECTED, "repeats ref_id TB-1 of batch 3 (orders-2026-11-21.csv), sent 2026-11-21 13:15 UTC"
                        + AGAIN, null),
                // a reason of the row's own comes first
                tuple("N2", RowState.REJECTED, "price 10450 exceeds max_price 100", null),
                tuple("N3", RowState.WAITING, "waits for ref_id TB-2 of batch 4 (late.csv)" + WAITS, "TB-2"),
                tuple("N4", RowState.WAITING, "waits for ref_id TB-3 of batch 4 (late.csv)" + WAITS, "TB-3"),
                tuple("N5", RowState.WAITING, "waits for ref_id TB-0, as ref_id TB-4 of batch 5 (later.csv) does" + WAITS, "TB-0"));
    }

    @Test
    void aZeroWindowTurnsTheGuardOff() throws IOException {
        writer.journalRepeats.put(RepeatKey.of("TSEL10", "081234567890", "", true),
                delivered("TB-1", 3, "a.csv", 2, NOW));
        plan(Duration.ZERO, 1_000_000, """
                ref_id,product_sku,customer_no
                Z1,TSEL10,081234567890
                Z2,TSEL10,081234567890
                """);
        assertThat(writer.rows).extracting(NewRow::state).containsOnly(RowState.ACCEPTED);
        assertThat(writer.repeatWindowStarts).isEmpty();
    }

    @Test
    void aRowRejectedForTheBalanceLeavesNoOrderToRepeat() throws IOException {
        plan(Duration.ofHours(24), 15_000, """
                ref_id,product_sku,customer_no,customer_no_zone
                B1,ML86,123456,1
                B2,ML86,123456,1
                B3,TSEL10,081234567890,
                """);
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::state, NewRow::repeatKey).containsExactly(
                tuple("B1", RowState.REJECTED, null), tuple("B2", RowState.REJECTED, null),
                tuple("B3", RowState.ACCEPTED, RepeatKey.of("TSEL10", "081234567890", "", true)));
        assertThat(writer.rows.get(1).message()).startsWith("insufficient balance");
    }

    @Test
    void planTellsRepeatsAsIntakeDoesWithTheJournalAskedOncePerChunk() throws IOException {
        String key = RepeatKey.of("TSEL10", "081234567890", "", true);
        EarlierOrder tb1 = delivered("TB-1", 3, "orders-2026-11-21.csv", 2, Instant.parse("2026-11-21T13:15:00Z"));
        java.util.List<String> waits = new java.util.ArrayList<>();
        java.util.List<java.util.Collection<String>> asked = new java.util.ArrayList<>();
        java.util.List<String> rejections = new java.util.ArrayList<>();
        try (PlanWriter plan = new PlanWriter(refIds -> java.util.Set.of(), (keys, since) -> {
            asked.add(java.util.List.copyOf(keys));
            assertThat(since).isEqualTo(NOW.minus(Duration.ofHours(2)).toEpochMilli());
            return keys.contains(key) ? java.util.Map.of(key, tb1) : java.util.Map.of();
        }); CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream("""
                ref_id,product_sku,customer_no,allow_repeat
                Q1,TSEL10,+6281234567890,
                Q2,ISAT10,081234567890,
                Q3,ISAT10,6281234567890,
                Q4,TSEL10,081234567890,true
                """.getBytes(StandardCharsets.UTF_8)))) {
            new BatchPlanner(validator, BalancePolicy.BEST_EFFORT, Duration.ofHours(2), Clock.fixed(NOW, ZoneOffset.UTC))
                    .plan(reader, plan, 1_000_000, new BatchPlanner.RowListener() {
                        @Override
                        public void decided(BatchRow row, RowDecision decision, String rejection) {
                            rejections.add(rejection);
                        }

                        @Override
                        public void waits(BatchRow row, String message) {
                            waits.add(row.refId() + ": " + message);
                        }
                    });
        }
        assertThat(rejections).containsExactly(
                "repeats ref_id TB-1 of batch 3 (orders-2026-11-21.csv), sent 2026-11-21 13:15 UTC" + AGAIN, null, null, null);
        assertThat(waits).as("acceptable, waiting for the row it repeats").containsExactly(
                "Q3: waits for ref_id Q2 (line 3 of this file)" + WAITS);
        assertThat(asked).as("one look-up for the chunk, without the row that may repeat").hasSize(1);
        assertThat(asked.get(0)).containsExactlyInAnyOrder(key, RepeatKey.of("ISAT10", "081234567890", "", true));
    }
}
