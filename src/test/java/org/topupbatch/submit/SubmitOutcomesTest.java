package org.topupbatch.submit;

import org.topupbatch.track.CheckSchedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderStatus;
import org.topupbatch.provider.ProviderError;
import org.topupbatch.provider.ProviderException;

/** What the submit route records for each way a create-order can end. */
class SubmitOutcomesTest {

    @TempDir
    Path dir;
    SubmitFixture f;

    @BeforeEach
    void open() {
        f = new SubmitFixture(dir, 3);
        f.clock.advance(Duration.ofMinutes(5));
    }

    @AfterEach
    void close() {
        f.close();
    }

    private static ProviderException error(String code, int status, boolean unknown) {
        return new ProviderException("create-order", code, status, unknown, "msg", null, null);
    }

    private static Order answer(RowRecord row, OrderStatus status) {
        return new Order(row.refId(), row.productSku(), row.customerNo(), status, status == OrderStatus.SUCCESS ? "SN-1" : null,
                20_000L, 900_000L, 880_000L, null);
    }

    @Test
    void a_success_answer_is_recorded_as_final() {
        RowRecord row = f.sending(0);
        f.outcomes.record(row, row.sentAt(), answer(row, OrderStatus.SUCCESS));
        assertThat(f.row(0)).satisfies(r -> {
            assertThat(r.state()).isEqualTo(RowState.SUCCESS);
            assertThat(r.serialNumber()).isEqualTo("SN-1");
            assertThat(r.price()).isEqualTo(20_000L);
        });
    }

    @Test
    void a_pending_answer_gets_its_first_check_planned_on_the_clock() {
        RowRecord row = f.sending(0);
        f.outcomes.record(row, row.sentAt(), answer(row, OrderStatus.PENDING));
        assertThat(f.row(0).state()).isEqualTo(RowState.PENDING);
        assertThat(f.row(0).nextCheckAt()).isEqualTo(CheckSchedule.next(f.clock.instant(), 0, false));
    }

    @Test
    void an_answer_about_another_order_is_an_unknown_outcome() {
        RowRecord row = f.sending(0);
        f.outcomes.record(row, row.sentAt(), new Order(row.refId(), "OTHER", row.customerNo(), OrderStatus.SUCCESS, "SN", 1L, null, null, null));
        assertThat(f.row(0).state()).isEqualTo(RowState.UNKNOWN);
    }

    @Test
    void a_timeout_after_sending_is_unknown_and_looked_up_later_never_failed() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, error("TIMEOUT", 0, true), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.UNKNOWN);
        assertThat(f.row(0).nextCheckAt()).isEqualTo(CheckSchedule.next(f.clock.instant(), 0, true));
    }

    @Test
    void a_duplicate_ref_id_means_the_order_exists_and_is_looked_up() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, error("duplicate_ref_id", 409, false), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.UNKNOWN);
    }

    @Test
    void a_429_pauses_every_caller_and_the_row_waits_its_turn_again() {
        RowRecord row = f.sending(0);
        ProviderException tooMany = new ProviderException("create-order", ProviderError.RATE_LIMIT_EXCEEDED, 429, false, null, 7L, null);
        f.outcomes.recordFailure(row, tooMany, true);
        assertThat(f.rateLimited).containsExactly(tooMany);
        assertThat(f.state(0)).isEqualTo(RowState.ACCEPTED);
    }

    @Test
    void a_refused_connection_sent_nothing_and_the_row_goes_back_to_the_queue() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, error("CONNECTION_FAILED", 0, false), true);
        assertThat(f.state(0)).isEqualTo(RowState.ACCEPTED);
        assertThat(f.rateLimited).isEmpty();
    }

    @Test
    void a_failure_before_marking_leaves_the_row_accepted() {
        f.outcomes.recordFailure(f.row(0), error("INTERRUPTED", 0, false), false);
        f.outcomes.recordFailure(f.row(1), new IllegalStateException("journal busy"), false);
        assertThat(f.state(0)).isEqualTo(RowState.ACCEPTED);
        assertThat(f.state(1)).isEqualTo(RowState.ACCEPTED);
    }

    @Test
    void anything_else_after_marking_may_have_left_and_is_unknown() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, new IllegalStateException("boom"), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.UNKNOWN);
    }

    @Test
    void insufficient_balance_refuses_the_row_and_halts_only_its_batch() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, error("INSUFFICIENT_BALANCE", 400, false), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.REFUSED);
        assertThat(f.row(0).message()).startsWith("refused by the provider: INSUFFICIENT_BALANCE");
        assertThat(f.journal.reporting().batch(f.batchId).orElseThrow().haltReason()).contains("insufficient balance");
        assertThat(f.queue.mayStart(f.row(1))).isFalse();
        assertThat(f.queue.fatalProblem()).isNull();
    }

    @Test
    void refused_credentials_put_the_row_back_and_stop_everything() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, error("INVALID_SIGNATURE", 401, false), true);
        assertThat(f.state(0)).isEqualTo(RowState.ACCEPTED);
        assertThat(f.queue.fatalProblem()).contains("INVALID_SIGNATURE");
        assertThat(f.queue.due(10)).isEmpty();
    }

    @Test
    void another_refusal_is_this_row_alone() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, error("PRODUCT_NOT_FOUND", 400, false), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.REFUSED);
        assertThat(f.queue.mayStart(f.row(1))).isTrue();
    }
}
