package org.topupbatch.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.ProviderError;
import org.topupbatch.provider.ProviderException;

/** The submit route's queue decisions: which rows may start, and ACCEPTED -> SENDING. */
class OrderQueueTest {

    @TempDir
    Path dir;
    SubmitFixture f;
    final DefaultCamelContext camel = new DefaultCamelContext();

    @BeforeEach
    void open() {
        f = new SubmitFixture(dir, 3);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private Exchange exchange() {
        return new DefaultExchange(camel);
    }

    @Test
    void due_rows_come_in_file_order_and_stay_accepted_until_marked() {
        assertThat(f.queue.due(10)).extracting(RowRecord::refId).containsExactly("R-0", "R-1", "R-2");
        assertThat(f.queue.mayStart(f.row(0))).isTrue();
        // waiting for the budget happens here: the row is still ACCEPTED, a crash costs nothing
        assertThat(f.state(0)).isEqualTo(RowState.ACCEPTED);
    }

    @Test
    void balance_before_is_read_once_per_batch_before_its_first_order() {
        assertThat(f.queue.mayStart(f.row(0))).isTrue();
        assertThat(f.queue.mayStart(f.row(1))).isTrue();
        assertThat(f.balanceReads).hasValue(1);
        assertThat(f.journal.reporting().batch(f.batchId).orElseThrow().balanceBefore()).isEqualTo(900_000L);
        assertThat(f.journal.reporting().batch(f.batchId).orElseThrow().submitStartedAt()).isEqualTo(SubmitFixture.T0);
    }

    @Test
    void marking_sending_commits_once_and_notes_it_on_the_exchange() {
        Exchange first = exchange();
        assertThat(f.queue.markSending(f.row(0), first)).isTrue();
        assertThat(first.getProperty(OrderQueue.SENDING, Boolean.class)).isTrue();
        assertThat(f.state(0)).isEqualTo(RowState.SENDING);
        Exchange again = exchange();
        assertThat(f.queue.markSending(f.row(0), again)).as("another worker took it").isFalse();
        assertThat(again.getProperty(OrderQueue.SENDING)).isNull();
    }

    @Test
    void a_halted_batch_drops_rows_even_when_their_reservation_is_already_held() {
        assertThat(f.queue.mayStart(f.row(1))).isTrue();
        f.queue.halt(f.batchId, "insufficient balance");
        assertThat(f.queue.markSending(f.row(1), exchange())).isFalse();
        assertThat(f.state(1)).isEqualTo(RowState.ACCEPTED);
        assertThat(f.queue.mayStart(f.row(2))).isFalse();
        assertThat(f.journal.reporting().batch(f.batchId).orElseThrow().haltReason()).isEqualTo("insufficient balance");
    }

    @Test
    void a_stopping_run_takes_no_rows_and_marks_none() {
        f.queue.refuseNewRows();
        assertThat(f.queue.due(10)).isEmpty();
        assertThat(f.queue.mayStart(f.row(0))).isFalse();
        assertThat(f.queue.markSending(f.row(0), exchange())).isFalse();
        assertThat(f.state(0)).isEqualTo(RowState.ACCEPTED);
    }

    @Test
    void refused_credentials_at_the_balance_read_stop_submission_for_good() {
        f.balance = () -> {
            throw new ProviderException("check-balance", ProviderError.INVALID_API_KEY, 401, false, "bad key", null, null);
        };
        assertThat(f.queue.mayStart(f.row(0))).isFalse();
        assertThat(f.queue.fatalProblem()).contains("INVALID_API_KEY");
        assertThat(f.queue.due(10)).isEmpty();
    }

    @Test
    void a_balance_read_that_times_out_is_tried_again_for_the_next_row() {
        f.balance = () -> {
            throw new ProviderException("check-balance", ProviderError.TIMEOUT, 0, false, "slow", null, null);
        };
        assertThat(f.queue.mayStart(f.row(0))).isFalse();
        assertThat(f.queue.fatalProblem()).isNull();
        f.balance = () -> new org.topupbatch.provider.Balance(5, "IDR", "basic", "Demo");
        assertThat(f.queue.mayStart(f.row(0))).isTrue();
        assertThat(f.balanceReads).hasValue(2);
    }
}
