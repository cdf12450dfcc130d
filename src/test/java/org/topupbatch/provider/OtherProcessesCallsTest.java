package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Other processes' calls alone: what one reading of the journal counts, and who reads it when. */
class OtherProcessesCallsTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    private static final Duration LONGEST_CALL = Duration.ofSeconds(40);

    private final InMemoryCallLog log = new InMemoryCallLog();
    private final OtherProcessesCalls others = new OtherProcessesCalls(log, LONGEST_CALL);

    @Test
    void one_caller_reads_at_a_time_and_then_not_again_for_half_a_second() {
        assertThat(others.claimRead(T0)).isTrue();
        assertThat(others.claimRead(T0)).as("a second caller while the first reads").isFalse();
        assertThat(others.beingRead()).isTrue();
        others.take(others.read(T0));
        assertThat(others.beingRead()).isFalse();
        assertThat(others.claimRead(T0.plusMillis(499))).isFalse();
        assertThat(others.stale(T0.plusMillis(499))).isFalse();
        assertThat(others.stale(T0.plusMillis(500))).isTrue();
        assertThat(others.claimRead(T0.plusMillis(500))).isTrue();
    }

    @Test
    void other_processes_calls_count_and_this_process_own_and_refused_ones_do_not() {
        long mine = answered(T0.minusSeconds(1), T0.minusMillis(500), 200);
        others.own(mine);
        answered(T0.minusSeconds(1), T0.minusMillis(400), 200);
        answered(T0.minusSeconds(1), T0.minusMillis(300), 429);
        log.reserveCall(T0.minusSeconds(2), "order-history"); // on the wire in the other process
        List<ProviderCall> fresh = others.take(others.read(T0));
        assertThat(fresh).extracting(ProviderCall::id).containsExactly(2L, 4L);
        assertThat(others.ended()).containsExactly(T0.minusMillis(400), T0.minusSeconds(2).plus(LONGEST_CALL));
        assertThat(others.take(others.read(T0.plusSeconds(1)))).as("taken into the pace and the day once").isEmpty();
        assertThat(others.ended()).hasSize(2);
    }

    @Test
    void a_call_that_left_the_window_no_longer_counts() {
        answered(T0.minusSeconds(70), T0.minusSeconds(62), 200);
        answered(T0.minusSeconds(70), T0.minusSeconds(60), 200);
        others.take(others.read(T0));
        assertThat(others.ended()).containsExactly(T0.minusSeconds(60));
    }

    @Test
    void while_another_process_calls_the_slots_it_may_take_before_the_next_reading_are_left_free() {
        assertThat(others.margin(300)).as("nobody else calls").isZero();
        answered(T0, T0, 200);
        others.take(others.read(T0));
        assertThat(others.margin(300)).as("gold: 2.5 a half second, and one more").isEqualTo(4);
        assertThat(others.margin(60)).isEqualTo(2);
    }

    @Test
    void a_failed_reading_keeps_what_the_last_one_counted() {
        answered(T0, T0, 200);
        others.take(others.read(T0));
        OtherProcessesCalls.Reading failed = new OtherProcessesCalls.Reading(T0.plusSeconds(1), List.of(), Optional.empty(), true);
        assertThat(others.take(failed)).isEmpty();
        assertThat(others.ended()).hasSize(1);
        assertThat(others.stale(T0.plusSeconds(1))).isFalse();
    }

    @Test
    void a_reading_carries_the_limits_last_remembered() {
        AccountLimits learned = new AccountLimits(300, 50_000, 12, T0);
        log.rememberLimits(learned);
        assertThat(others.read(T0).limits()).contains(learned);
    }

    @Test
    void a_call_counted_as_another_process_before_this_one_knew_it_as_its_own_is_handed_back() {
        long id = log.reserveCall(T0, "create-order"); // journaled; the reading came before the id was known
        others.take(others.read(T0));
        assertThat(others.own(id)).isTrue();
        assertThat(others.ended()).isEmpty();
        assertThat(others.own(id)).isFalse();
    }

    private long answered(Instant reservedAt, Instant answeredAt, int status) {
        long id = log.reserveCall(reservedAt, "order-history");
        log.completeCall(id, answeredAt, status);
        return id;
    }
}
