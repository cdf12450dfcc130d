package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The pause after a 429 alone: once per episode, as long as Retry-After asks, else doubling to a window. */
class TooManyRequestsBackOffTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    private final TooManyRequestsBackOff backOff = new TooManyRequestsBackOff();

    @Test
    void retry_after_is_what_the_pause_lasts() {
        assertThat(backOff.pause(7L, T0)).isEqualTo(7000);
        assertThat(backOff.waitMillis(T0)).isEqualTo(7001);
        assertThat(backOff.waitMillis(T0.plusSeconds(7))).isZero();
    }

    @Test
    void the_429s_of_requests_already_on_the_wire_do_not_lengthen_the_pause() {
        Instant leftBefore = T0.minusMillis(300);
        assertThat(backOff.pause(null, T0)).isEqualTo(2000);
        backOff.answered(leftBefore, 429);
        assertThat(backOff.pause(null, T0.plusMillis(10))).as("same episode").isZero();
        assertThat(backOff.waitMillis(T0.plusMillis(10))).isEqualTo(1991);
    }

    @Test
    void a_429_after_the_pause_doubles_the_next_up_to_one_window_and_an_answer_starts_again_from_2_s() {
        Instant now = T0;
        backOff.answered(now.minusMillis(1), 429);
        long[] expected = {2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000};
        for (long ms : expected) {
            assertThat(backOff.pause(null, now)).isEqualTo(ms);
            now = now.plusMillis(ms);
            backOff.answered(now.plusMillis(1), 429); // left after the pause: it was not enough
            now = now.plusMillis(2);
        }
        backOff.answered(now.plusMillis(1), 200);
        assertThat(backOff.pause(null, now.plusMillis(2))).isEqualTo(2000);
    }

    @Test
    void a_longer_retry_after_during_a_pause_lengthens_it() {
        backOff.pause(null, T0);
        backOff.pause(10L, T0.plusSeconds(1));
        assertThat(backOff.waitMillis(T0.plusSeconds(1))).isEqualTo(10_001);
    }

    @Test
    void reset_ends_the_pause() {
        backOff.pause(30L, T0);
        backOff.reset();
        assertThat(backOff.waitMillis(T0)).isZero();
    }
}
