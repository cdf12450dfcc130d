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

/** The repeat guard of the planner (README "Rejected rows", topup.repeat-window). */
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

    @Test
    void anEarlierAcceptedRowOfTheFileWithTheSamePhoneInAnyFormIsRepeated() throws IOException {
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
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::state, NewRow::message).containsExactly(
                tuple("P1", RowState.ACCEPTED, null),
                tuple("P2", RowState.REJECTED, "repeats line 2 of this file" + AGAIN),
                tuple("P3", RowState.REJECTED, "repeats line 2 of this file" + AGAIN),
                tuple("P4", RowState.ACCEPTED, null), // another product
                tuple("P5", RowState.ACCEPTED, null),
                tuple("P6", RowState.ACCEPTED, null), // another zone
                tuple("P7", RowState.REJECTED, "repeats line 6 of this file" + AGAIN));
        assertThat(s.accepted()).isEqualTo(4);
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
                tuple("A4", RowState.ACCEPTED), tuple("A5", RowState.REJECTED), tuple("A6", RowState.REJECTED));
        assertThat(writer.rows.get(1).extras()).containsExactly("YES");
    }

    @Test
    void anOrderOfAnEarlierBatchIsNamedWithItsBatchAndTime() throws IOException {
        String key = RepeatKey.of("TSEL10", "081234567890", "", true);
        writer.journalRepeats.put(key, new EarlierOrder("TB-1", 3, "orders-2026-11-21.csv", 2,
                Instant.parse("2026-11-21T13:15:42Z").toEpochMilli(), true, false));
        writer.journalRepeats.put(RepeatKey.of("ISAT10", "081234567890", "", true), new EarlierOrder("TB-2", 4,
                "late.csv", 5, Instant.parse("2026-11-22T09:00:00Z").toEpochMilli(), false, false));
        plan(Duration.ofHours(24), 1_000_000, """
                ref_id,product_sku,customer_no,max_price
                N1,TSEL10,+6281234567890,
                N2,TSEL10,081234567890,100
                N3,ISAT10,6281234567890,
                """);
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::message).containsExactly(
                tuple("N1", "repeats ref_id TB-1 of batch 3 (orders-2026-11-21.csv), sent 2026-11-21 13:15 UTC" + AGAIN),
                // a reason of the row's own comes first
                tuple("N2", "price 10450 exceeds max_price 100"),
                tuple("N3", "repeats ref_id TB-2 of batch 4 (late.csv), accepted and not yet sent, 2026-11-22 09:00 UTC" + AGAIN));
    }

    @Test
    void aZeroWindowTurnsTheGuardOff() throws IOException {
        writer.journalRepeats.put(RepeatKey.of("TSEL10", "081234567890", "", true),
                new EarlierOrder("TB-1", 3, "a.csv", 2, NOW.toEpochMilli(), true, false));
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
        EarlierOrder tb1 = new EarlierOrder("TB-1", 3, "orders-2026-11-21.csv", 2,
                Instant.parse("2026-11-21T13:15:00Z").toEpochMilli(), true, false);
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
                    .plan(reader, plan, 1_000_000, (row, decision, rejection) -> rejections.add(rejection));
        }
        assertThat(rejections).containsExactly(
                "repeats ref_id TB-1 of batch 3 (orders-2026-11-21.csv), sent 2026-11-21 13:15 UTC" + AGAIN,
                null,
                "repeats line 3 of this file" + AGAIN,
                null);
        assertThat(asked).as("one look-up for the chunk, without the row that may repeat").hasSize(1);
        assertThat(asked.get(0)).containsExactlyInAnyOrder(key, RepeatKey.of("ISAT10", "081234567890", "", true));
    }
}
