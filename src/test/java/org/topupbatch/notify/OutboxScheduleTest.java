package org.topupbatch.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The outbox's back-off (docs/operating.md#notifications): doubling from topup.notify.retry-delay,
 * never more than an hour apart; the first three tries within two minutes (CONTRACT section 13);
 * a message given up once its next try would fall beyond topup.notify.give-up-after.
 */
class OutboxScheduleTest {

    static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    @Test
    void theWaitsDoubleFromTheRetryDelayAndStopAtAnHour() {
        OutboxSchedule s = new OutboxSchedule(Duration.ofSeconds(2), Duration.ofDays(2));
        assertThat(s.waitAfter(1)).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.waitAfter(2)).isEqualTo(Duration.ofSeconds(4));
        assertThat(s.waitAfter(3)).isEqualTo(Duration.ofSeconds(8));
        assertThat(s.waitAfter(12)).isEqualTo(Duration.ofHours(1));
        assertThat(s.waitAfter(1_000)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void theFirstThreeTriesFallWithinTwoMinutesEvenWithATenSecondDelay() {
        OutboxSchedule s = new OutboxSchedule(Duration.ofSeconds(10), Duration.ofDays(2));
        Instant first = T0;
        Instant second = s.nextTry(1, T0, first).orElseThrow();
        Instant third = s.nextTry(2, T0, second).orElseThrow();
        assertThat(Duration.between(first, third)).isLessThanOrEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void aReceiverDownForADayIsTriedAboutHourlyAndGivenUpAfterTheGiveUpAge() {
        OutboxSchedule s = new OutboxSchedule(Duration.ofSeconds(2), Duration.ofDays(2));
        Instant at = T0;
        int tries = 1;
        Optional<Instant> next;
        while ((next = s.nextTry(tries, T0, at)).isPresent()) {
            at = next.get();
            tries++;
        }
        assertThat(at).isBeforeOrEqualTo(T0.plus(Duration.ofDays(2)));
        assertThat(at).isAfter(T0.plus(Duration.ofDays(2)).minus(Duration.ofHours(1)));
        // 2 s doubling to an hour takes 12 tries, then about 46 hourly ones
        assertThat(tries).isBetween(55, 62);
        assertThat(s.nextTry(1, T0, T0.plus(Duration.ofDays(2)))).as("past the age: given up").isEmpty();
    }
}
