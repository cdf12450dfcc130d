package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rolling minute alone: a slot is free again exactly 61 s after its request's answer, not a moment sooner. */
class RollingWindowTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    private static final long LONGEST_WAIT = 500;

    private final RollingWindow window = new RollingWindow();

    @Test
    void the_limit_fills_the_window_and_one_more_waits_until_the_first_answer_is_61_s_old() {
        for (int i = 0; i < 5; i++) {
            assertThat(window.waitMillis(T0, 5, List.of(), LONGEST_WAIT)).as("request %d", i + 1).isZero();
            window.reserve();
            window.answered(T0);
        }
        assertThat(window.waitMillis(T0, 5, List.of(), 120_000)).as("the sixth").isEqualTo(61_000);
        assertThat(window.waitMillis(T0.plusMillis(60_999), 5, List.of(), LONGEST_WAIT)).as("a millisecond early").isEqualTo(1);
        assertThat(window.count(T0.plusMillis(60_999))).isEqualTo(5);
        assertThat(window.count(T0.plusSeconds(61))).isZero();
        assertThat(window.waitMillis(T0.plusSeconds(61), 5, List.of(), LONGEST_WAIT)).isZero();
    }

    @Test
    void a_request_counts_while_in_flight_and_a_window_after_its_answer() {
        window.reserve();
        assertThat(window.count(T0.plusSeconds(300))).as("no answer yet").isEqualTo(1);
        assertThat(window.waitMillis(T0, 1, List.of(), LONGEST_WAIT))
                .as("every slot on the wire: look again soon").isEqualTo(RollingWindow.IN_FLIGHT_RECHECK_MILLIS);
        window.answered(T0.plusSeconds(2));
        assertThat(window.count(T0.plusSeconds(62))).isEqualTo(1);
        assertThat(window.count(T0.plusSeconds(63))).isZero();
    }

    @Test
    void a_request_given_back_frees_its_slot_at_once() {
        window.reserve();
        window.givenBack();
        assertThat(window.count(T0)).isZero();
    }

    @Test
    void other_processes_calls_fill_the_window_too_and_the_wait_is_never_longer_than_asked() {
        window.reserve();
        window.answered(T0.plusSeconds(10));
        List<Instant> others = List.of(T0.plusSeconds(5), T0.plusSeconds(7));
        assertThat(window.waitMillis(T0.plusSeconds(10), 4, others, LONGEST_WAIT)).isZero();
        assertThat(window.waitMillis(T0.plusSeconds(10), 3, others, 120_000))
                .as("the other process's call answered at 5 s frees first").isEqualTo(56_000);
        assertThat(window.waitMillis(T0.plusSeconds(10), 3, others, LONGEST_WAIT)).isEqualTo(LONGEST_WAIT);
    }

    @Test
    void a_call_left_open_ends_at_its_reservation_plus_the_longest_call_and_a_429_never_counts() {
        Duration longest = Duration.ofSeconds(40);
        ProviderCall open = new ProviderCall(1, T0, "create-order", null, null);
        ProviderCall answered = new ProviderCall(2, T0, "create-order", T0.plusMillis(700), 200);
        ProviderCall refused = new ProviderCall(3, T0, "create-order", T0.plusMillis(300), 429);
        assertThat(RollingWindow.endOf(open, longest)).isEqualTo(T0.plusSeconds(40));
        assertThat(RollingWindow.endOf(answered, longest)).isEqualTo(T0.plusMillis(700));
        assertThat(RollingWindow.refused(refused)).isTrue();
        assertThat(RollingWindow.refused(answered)).isFalse();
        assertThat(RollingWindow.refused(open)).isFalse();
    }
}
