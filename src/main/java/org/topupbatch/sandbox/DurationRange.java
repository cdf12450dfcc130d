package org.topupbatch.sandbox;

import java.time.Duration;
import java.util.Locale;
import java.util.Random;

/**
 * A closed range of durations, written {@code 20ms-150ms}, a single duration ({@code 100ms}) or {@code 0}.
 * Units: {@code ms}, {@code s}, {@code m}.
 */
public record DurationRange(Duration min, Duration max) {

    public static final DurationRange ZERO = new DurationRange(Duration.ZERO, Duration.ZERO);

    public DurationRange {
        if (min.isNegative() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("range must satisfy 0 <= min <= max");
        }
    }

    public static DurationRange of(Duration min, Duration max) {
        return new DurationRange(min, max);
    }

    public static DurationRange parse(String text) {
        String t = text.trim();
        // the '-' separates the two ends; durations themselves are never negative
        int dash = t.indexOf('-');
        if (dash < 0) {
            Duration d = parseDuration(t);
            return new DurationRange(d, d);
        }
        return new DurationRange(parseDuration(t.substring(0, dash)), parseDuration(t.substring(dash + 1)));
    }

    public static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        int unitAt = 0;
        while (unitAt < t.length() && Character.isDigit(t.charAt(unitAt))) {
            unitAt++;
        }
        if (unitAt == 0 || unitAt > 12) {
            throw new IllegalArgumentException("expected a duration such as 150ms, 2s or 1m");
        }
        long amount = Long.parseLong(t.substring(0, unitAt));
        switch (t.substring(unitAt)) {
            case "ms": return Duration.ofMillis(amount);
            case "s": return Duration.ofSeconds(amount);
            case "m": return Duration.ofMinutes(amount);
            default: throw new IllegalArgumentException("expected a duration such as 150ms, 2s or 1m");
        }
    }

    /** A uniformly drawn duration within the range (millisecond resolution). */
    public Duration pick(Random random) {
        long lo = min.toMillis();
        long hi = max.toMillis();
        return Duration.ofMillis(hi <= lo ? lo : lo + (long) (random.nextDouble() * (hi - lo + 1)));
    }

    public boolean isZero() {
        return max.isZero();
    }

    @Override
    public String toString() {
        return min.equals(max) ? format(min) : format(min) + "-" + format(max);
    }

    private static String format(Duration d) {
        return d.isZero() ? "0" : d.toMillis() + "ms";
    }
}
