package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The day's limit alone, on the provider's UTC day. */
class DailyQuotaTest {

    private static final Instant T0 = Instant.parse("2026-11-27T22:00:00Z");
    private static final Instant MIDNIGHT = Instant.parse("2026-11-28T00:00:00Z");

    private final DailyQuota day = new DailyQuota(3, T0);

    @Test
    void the_last_request_of_the_day_is_let_through_and_the_next_waits_until_midnight_utc() {
        day.take();
        day.take();
        assertThat(day.waitMillis(T0)).as("the third of three").isZero();
        day.take();
        assertThat(day.waitMillis(T0)).isEqualTo(2 * 3600 * 1000);
        day.roll(MIDNIGHT.minusMillis(1));
        assertThat(day.used()).isEqualTo(3);
        day.roll(MIDNIGHT);
        assertThat(day.used()).isZero();
        assertThat(day.waitMillis(MIDNIGHT)).isZero();
    }

    @Test
    void a_request_not_taken_gives_its_count_back_never_below_zero() {
        day.take();
        day.giveBack();
        day.giveBack();
        assertThat(day.used()).isZero();
    }

    @Test
    void what_the_provider_reported_is_a_floor() {
        day.take();
        day.atLeast(2);
        assertThat(day.used()).isEqualTo(2);
        day.atLeast(1);
        assertThat(day.used()).isEqualTo(2);
    }

    @Test
    void another_process_request_counts_when_it_is_todays() {
        day.countOther(T0.minusSeconds(3600));
        day.countOther(Instant.parse("2026-11-26T23:59:59Z")); // yesterday, UTC
        assertThat(day.used()).isEqualTo(1);
    }

    @Test
    void a_restart_judges_from_its_day_with_the_usage_counted_in_the_journal() {
        day.take();
        day.restart(MIDNIGHT.plusSeconds(60), 2);
        assertThat(day.used()).isEqualTo(2);
        day.setLimit(2);
        assertThat(day.waitMillis(MIDNIGHT.plusSeconds(60))).isPositive();
        assertThat(DailyQuota.startOfDay(T0)).isEqualTo(Instant.parse("2026-11-27T00:00:00Z"));
    }
}
