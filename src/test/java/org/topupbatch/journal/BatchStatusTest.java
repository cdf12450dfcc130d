package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchStatusTest {

    private static final Instant T = Instant.parse("2024-03-01T08:00:00Z");

    private static BatchRecord batch(String error, String halt, Instant submitStarted, Instant reported, boolean complete) {
        return new BatchRecord(1, "orders.csv", ',', List.of(), null, error, halt, null, T, submitStarted, reported, complete);
    }

    private static BatchProgress rows(RowState state, long n) {
        return new BatchProgress(1, Map.of(state, n));
    }

    @Test
    void the_words_operators_see() {
        assertThat(BatchStatus.of(batch("bad", null, null, null, false), rows(RowState.ACCEPTED, 1)).word()).isEqualTo("unreadable");
        assertThat(BatchStatus.of(batch(null, "stop", null, null, false), rows(RowState.ACCEPTED, 1)).word()).isEqualTo("halted");
        assertThat(BatchStatus.of(batch(null, null, null, null, false), rows(RowState.ACCEPTED, 1)).word()).isEqualTo("queued");
        assertThat(BatchStatus.of(batch(null, null, T, null, false), rows(RowState.ACCEPTED, 1)).word()).isEqualTo("submitting");
        assertThat(BatchStatus.of(batch(null, null, null, null, false), rows(RowState.SENDING, 1)).word()).isEqualTo("submitting");
        assertThat(BatchStatus.of(batch(null, null, T, T, false), rows(RowState.PENDING, 1)).word()).isEqualTo("tracking");
        assertThat(BatchStatus.of(batch(null, null, T, T, false), rows(RowState.SUCCESS, 1)).word()).isEqualTo("reporting");
        assertThat(BatchStatus.of(batch(null, null, T, T, true), rows(RowState.SUCCESS, 1)).word()).isEqualTo("reported");
    }

    @Test
    void active_while_orders_are_to_send_or_to_learn() {
        assertThat(BatchStatus.values()).filteredOn(BatchStatus::active)
                .containsExactly(BatchStatus.QUEUED, BatchStatus.SUBMITTING, BatchStatus.TRACKING);
    }
}
