package org.topupbatch.provider;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * The account's requests per day, counted on the provider's day (UTC): every process's requests
 * count; a request refused with 429 or never sent does not. Not thread-safe: the budget guards it.
 */
final class DailyQuota {

    private long perDay;
    private long used;
    private LocalDate today;

    DailyQuota(long perDay, Instant now) {
        this.perDay = Math.max(1, perDay);
        this.today = dayOf(now);
    }

    long limit() {
        return perDay;
    }

    void setLimit(long perDay) {
        this.perDay = Math.max(1, perDay);
    }

    /** Today's requests as counted here. */
    long used() {
        return used;
    }

    /** The provider said it counted {@code reported} today: never less than that. */
    void atLeast(long reported) {
        used = Math.max(used, reported);
    }

    /** Judges again from {@code now}'s day with {@code used} requests already counted in it. */
    void restart(Instant now, long used) {
        this.today = dayOf(now);
        this.used = used;
    }

    /** The start of {@code at}'s day (UTC). */
    static Instant startOfDay(Instant at) {
        return dayOf(at).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** A new day at {@code now} starts from zero. */
    void roll(Instant now) {
        LocalDate d = dayOf(now);
        if (!d.equals(today)) {
            today = d;
            used = 0;
        }
    }

    /** How long a request must wait at {@code now}: until midnight UTC when the day is used up; else 0. */
    long waitMillis(Instant now) {
        if (used < perDay) {
            return 0;
        }
        Instant midnight = today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        return Math.max(1, Duration.between(now, midnight).toMillis());
    }

    void take() {
        used++;
    }

    /** A request that was not taken (429, or never sent) gives its count back. */
    void giveBack() {
        used = Math.max(0, used - 1);
    }

    /** Another process's request reserved at {@code at}: it counts when it is today's. */
    void countOther(Instant at) {
        if (dayOf(at).equals(today)) {
            used++;
        }
    }

    private static LocalDate dayOf(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC);
    }
}
