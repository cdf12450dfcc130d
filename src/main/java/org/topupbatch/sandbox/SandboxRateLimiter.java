package org.topupbatch.sandbox;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Per api_key: a rolling 60 s window over all operations, a UTC-day count and a UTC-month count.
 * A request is refused when the window {@code (now - 60 s, now]} already holds the tier's
 * limit_per_minute counted requests, or the UTC day already holds limit_per_day.
 */
final class SandboxRateLimiter {

    static final Duration WINDOW = Duration.ofSeconds(60);

    private final Map<String, KeyUsage> usage = new HashMap<>();
    private long busiestWindow;

    /** Counts the request or throws 429 RATE_LIMIT_EXCEEDED / DAILY_LIMIT_EXCEEDED (those are not counted). */
    synchronized void admit(String apiKey, SandboxTier tier, Instant now) {
        KeyUsage u = usage(apiKey, now);
        if (u.today >= tier.limitPerDay()) {
            Instant midnight = u.day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
            throw new SandboxException(429, "DAILY_LIMIT_EXCEEDED",
                    "daily request limit of " + tier.limitPerDay() + " reached", ceilSeconds(Duration.between(now, midnight)));
        }
        if (u.window.size() >= tier.limitPerMinute()) {
            Instant oldestLeaves = u.window.peekFirst().plus(WINDOW);
            throw new SandboxException(429, "RATE_LIMIT_EXCEEDED",
                    "rate limit of " + tier.limitPerMinute() + " requests per minute exceeded",
                    ceilSeconds(Duration.between(now, oldestLeaves)));
        }
        count(u, now);
    }

    /**
     * Counts a request that is refused for another reason (bad signature, IP not whitelisted): it reached
     * the account, so it uses up budget, but only while there is room, so no window ever exceeds its limit.
     */
    synchronized void countIfRoom(String apiKey, SandboxTier tier, Instant now) {
        KeyUsage u = usage(apiKey, now);
        if (u.today < tier.limitPerDay() && u.window.size() < tier.limitPerMinute()) {
            count(u, now);
        }
    }

    synchronized long today(String apiKey, Instant now) {
        return usage(apiKey, now).today;
    }

    synchronized long thisMonth(String apiKey, Instant now) {
        return usage(apiKey, now).thisMonth;
    }

    synchronized long busiestWindow() {
        return busiestWindow;
    }

    /** For tests of the daily limit: pretend {@code count} requests were already made today. */
    synchronized void presetToday(String apiKey, long count, Instant now) {
        KeyUsage u = usage(apiKey, now);
        u.thisMonth += count - u.today;
        u.today = count;
    }

    private void count(KeyUsage u, Instant now) {
        u.window.addLast(now);
        u.today++;
        u.thisMonth++;
        busiestWindow = Math.max(busiestWindow, u.window.size());
    }

    private KeyUsage usage(String apiKey, Instant now) {
        KeyUsage u = usage.computeIfAbsent(apiKey, k -> new KeyUsage());
        LocalDate day = LocalDate.ofInstant(now, ZoneOffset.UTC);
        if (!day.equals(u.day)) {
            u.day = day;
            u.today = 0;
        }
        YearMonth month = YearMonth.from(day);
        if (!month.equals(u.month)) {
            u.month = month;
            u.thisMonth = 0;
        }
        Instant horizon = now.minus(WINDOW);
        while (!u.window.isEmpty() && !u.window.peekFirst().isAfter(horizon)) {
            u.window.removeFirst();
        }
        return u;
    }

    private static long ceilSeconds(Duration d) {
        long millis = d.toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }

    private static final class KeyUsage {
        final ArrayDeque<Instant> window = new ArrayDeque<>();
        LocalDate day;
        YearMonth month;
        long today;
        long thisMonth;
    }
}
