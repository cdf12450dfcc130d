package org.topupbatch.intake;

import org.topupbatch.settings.BalancePolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

class BatchPlannerTest {

    final RowValidator validator = new RowValidator(new TestCatalog(), CustomerRules.loadDefault());
    final InMemoryBatchWriter writer = new InMemoryBatchWriter();

    PlanSummary plan(BalancePolicy policy, long balance, String csv) throws IOException {
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)))) {
            return new BatchPlanner(validator, policy).plan(reader, writer, balance);
        }
    }

    @Test
    void everyRowIsAddedInFileOrderWithItsFields() throws IOException {
        PlanSummary s = plan(BalancePolicy.BEST_EFFORT, 1_000_000, """
                ref_id;product_sku;customer_no;customer_no_zone;max_price;note
                A1;ML86;123456;2001;25000;first
                A2;NOPE;123456;;;second

                A3;TSEL10;081234567890;;;third
                """);
        assertThat(s).isEqualTo(new PlanSummary(3, 2, 1, 30450));
        assertThat(writer.rows).extracting(NewRow::seq, NewRow::line, NewRow::refId, NewRow::state, NewRow::price, NewRow::message)
                .containsExactly(
                        tuple(0, 2L, "A1", RowState.ACCEPTED, 20000L, null),
                        tuple(1, 3L, "A2", RowState.REJECTED, null, "product_sku NOPE is not in the price list"),
                        tuple(2, 5L, "A3", RowState.ACCEPTED, 10450L, null));
        NewRow first = writer.rows.get(0);
        assertThat(first.customerNoZone()).isEqualTo("2001");
        assertThat(first.maxPrice()).isEqualTo(25000L);
        assertThat(first.extras()).containsExactly("first");
        assertThat(writer.rows.get(2).customerNoZone()).isNull();
        assertThat(writer.rows.get(2).maxPrice()).isNull();
    }

    @Test
    void duplicateRefIdsWithinTheFileAndAgainstTheJournal() throws IOException {
        writer.journalRefIds.add("OLD-1");
        plan(BalancePolicy.BEST_EFFORT, 1_000_000, """
                ref_id,product_sku,customer_no
                D1,TSEL10,081234567890
                D1,TSEL10,081234567891
                OLD-1,TSEL10,081234567890
                D2,NOPE,081234567890
                D2,TSEL10,081234567890
                D2,TSEL10,081234567890
                """);
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::state, NewRow::message).containsExactly(
                tuple("D1", RowState.ACCEPTED, null),
                tuple("D1", RowState.REJECTED, "ref_id D1 repeats line 2 of this file"),
                tuple("OLD-1", RowState.REJECTED, "ref_id OLD-1 already submitted (an earlier batch has it)"),
                // the first row counts even when it was rejected (docs/batch-files-and-reports.md#rejected-rows)
                tuple("D2", RowState.REJECTED, "product_sku NOPE is not in the price list"),
                tuple("D2", RowState.REJECTED, "ref_id D2 repeats line 5 of this file"),
                tuple("D2", RowState.REJECTED, "ref_id D2 repeats line 5 of this file"));
    }

    @Test
    void bestEffortRejectsRowsThatNoLongerFitAndGoesOn() throws IOException {
        PlanSummary s = plan(BalancePolicy.BEST_EFFORT, 35000, """
                ref_id,product_sku,customer_no,customer_no_zone
                B1,ML86,123456,1
                B2,ML86,123456,1
                B3,TSEL10,081234567890,
                B4,ML86,123456,1
                """);
        assertThat(writer.rows).extracting(NewRow::refId, NewRow::state, NewRow::message).containsExactly(
                tuple("B1", RowState.ACCEPTED, null),
                tuple("B2", RowState.REJECTED, "insufficient balance: price 20000, 15000 left of 35000 for this batch"),
                tuple("B3", RowState.ACCEPTED, null),
                tuple("B4", RowState.REJECTED, "insufficient balance: price 20000, 4550 left of 35000 for this batch"));
        assertThat(s).isEqualTo(new PlanSummary(4, 2, 2, 30450));
        assertThat(writer.rejectAllMessage).isNull();
    }

    @Test
    void allOrNothingRejectsEveryAcceptedRowWhenTheTotalExceedsTheBalance() throws IOException {
        PlanSummary s = plan(BalancePolicy.ALL_OR_NOTHING, 35000, """
                ref_id,product_sku,customer_no,customer_no_zone
                C1,ML86,123456,1
                C2,ML86,123456,1
                C3,NOPE,123456,1
                """);
        String message = "insufficient balance (all-or-nothing): the 2 valid rows cost 40000, the balance is 35000";
        assertThat(writer.rejectAllMessage).isEqualTo(message);
        assertThat(writer.rows).extracting(NewRow::state, NewRow::message).containsExactly(
                tuple(RowState.REJECTED, message), tuple(RowState.REJECTED, message),
                tuple(RowState.REJECTED, "product_sku NOPE is not in the price list"));
        assertThat(s).isEqualTo(new PlanSummary(3, 0, 3, 0));
    }

    @Test
    void allOrNothingKeepsEverythingThatFits() throws IOException {
        PlanSummary s = plan(BalancePolicy.ALL_OR_NOTHING, 40000, """
                ref_id,product_sku,customer_no,customer_no_zone
                C1,ML86,123456,1
                C2,ML86,123456,1
                """);
        assertThat(writer.rejectAllMessage).isNull();
        assertThat(s).isEqualTo(new PlanSummary(2, 2, 0, 40000));
    }

    @Test
    void malformedRowsAreRejectedWithTheReaderReason() throws IOException {
        plan(BalancePolicy.BEST_EFFORT, 1_000_000, "ref_id,product_sku,customer_no\nE1,TSEL10,081234567890,x\nE2,TSEL10,\"0812");
        assertThat(writer.rows).extracting(NewRow::line, NewRow::state, NewRow::message).containsExactly(
                tuple(2L, RowState.REJECTED, "line 2: the row has 4 fields but the header has 3 columns (a value holding ',' must be quoted)"),
                tuple(3L, RowState.REJECTED, "line 3: a quoted field starting on line 3 is never closed (unterminated quote at the end of the file)"));
    }

    @Test
    void notTextHalfwayLeavesThePlanner() {
        assertThatThrownBy(() -> plan(BalancePolicy.BEST_EFFORT, 1, "ref_id,product_sku,customer_no\nE1,S,\0\n"))
                .isInstanceOf(UnreadableBatchException.class);
        assertThat(writer.committed).isFalse();
    }

    @Test
    void emptyBatch() throws IOException {
        assertThat(plan(BalancePolicy.ALL_OR_NOTHING, 0, "ref_id,product_sku,customer_no\n")).isEqualTo(new PlanSummary(0, 0, 0, 0));
        assertThat(List.copyOf(writer.rows)).isEmpty();
    }
}
