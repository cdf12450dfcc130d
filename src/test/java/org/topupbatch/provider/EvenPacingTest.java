package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The even pace alone: a burst of limit/60, then one every 60/limit seconds. */
class EvenPacingTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    private static final int GOLD = 300;
    private static final int BASIC = 60;

    private final EvenPacing pacing = new EvenPacing();

    @Test
    void gold_sends_five_at_once_then_waits_200_ms_for_each_next() {
        for (int i = 0; i < 5; i++) {
            assertThat(pacing.waitMillis(T0, GOLD)).as("request %d of the burst", i + 1).isZero();
            pacing.left(T0, GOLD);
        }
        assertThat(pacing.waitMillis(T0, GOLD)).isEqualTo(200);
        assertThat(pacing.waitMillis(T0.plusMillis(199), GOLD)).isEqualTo(1);
        assertThat(pacing.waitMillis(T0.plusMillis(200), GOLD)).isZero();
        pacing.left(T0.plusMillis(200), GOLD);
        assertThat(pacing.waitMillis(T0.plusMillis(200), GOLD)).isEqualTo(200);
    }

    @Test
    void basic_sends_one_a_second_without_a_burst() {
        pacing.left(T0, BASIC);
        assertThat(pacing.waitMillis(T0, BASIC)).isEqualTo(1000);
        assertThat(pacing.waitMillis(T0.plusSeconds(1), BASIC)).isZero();
    }

    @Test
    void a_quiet_spell_refills_the_bucket_but_never_beyond_one_burst() {
        pacing.left(T0, GOLD);
        Instant later = T0.plusSeconds(30);
        for (int i = 0; i < 5; i++) {
            assertThat(pacing.waitMillis(later, GOLD)).isZero();
            pacing.left(later, GOLD);
        }
        assertThat(pacing.waitMillis(later, GOLD)).as("thirty quiet seconds save no more than a burst").isEqualTo(200);
    }

    @Test
    void another_process_request_takes_its_place_in_the_pace() {
        pacing.left(T0.minusMillis(100), BASIC); // read from the journal a moment after it left
        assertThat(pacing.waitMillis(T0, BASIC)).isEqualTo(900);
    }

    @Test
    void off_and_reset() {
        pacing.left(T0, BASIC);
        pacing.reset();
        assertThat(pacing.waitMillis(T0, BASIC)).isZero();
        pacing.left(T0, BASIC);
        pacing.off();
        assertThat(pacing.waitMillis(T0, BASIC)).isZero();
    }
}
