package org.topupbatch.sandbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How a sandbox knob's text is read ({@link SandboxConfig#set}): amounts, probabilities, durations,
 * lists. Each bad value throws an {@link IllegalArgumentException} saying what was expected; the
 * caller names the knob.
 */
final class KnobValues {

    private KnobValues() {
    }

    static String requireText(String v) {
        if (v.isEmpty()) {
            throw new IllegalArgumentException("must not be empty");
        }
        return v;
    }

    static long parseAmount(String v) {
        long amount = Long.parseLong(v.replace("_", ""));
        if (amount < 0) {
            throw new IllegalArgumentException("must not be negative");
        }
        return amount;
    }

    /** A duration that may be long: {@code 90d} and {@code 2h} besides what {@link DurationRange#parseDuration} reads. */
    static Duration parseLongDuration(String v) {
        String t = v.toLowerCase(Locale.ROOT);
        if (t.matches("\\d{1,6}d")) {
            return Duration.ofDays(Long.parseLong(t.substring(0, t.length() - 1)));
        }
        if (t.matches("\\d{1,7}h")) {
            return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
        }
        Duration d = DurationRange.parseDuration(t);
        if (d.isZero()) {
            throw new IllegalArgumentException("must be above 0, e.g. 90d, 2h, 30s");
        }
        return d;
    }

    static double parseProbability(String v) {
        double p = Double.parseDouble(v);
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException("expected a probability between 0 and 1");
        }
        return p;
    }

    static boolean parseBoolean(String v) {
        switch (v.toLowerCase(Locale.ROOT)) {
            case "true": return true;
            case "false": return false;
            default: throw new IllegalArgumentException("expected true or false");
        }
    }

    static List<String> parseList(String v) {
        List<String> items = new ArrayList<>();
        Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(items::add);
        return List.copyOf(items);
    }

    /** {@code 1m,5m,30m,2h}: at least one, none negative; {@code none} for no retries at all. */
    static List<Duration> parseDurations(String v) {
        if (v.equalsIgnoreCase("none")) {
            return List.of();
        }
        List<Duration> waits = new ArrayList<>();
        for (String item : parseList(v)) {
            // hours too: the documented schedule ends with 2 h
            waits.add(item.endsWith("h") ? Duration.ofHours(Long.parseLong(item.substring(0, item.length() - 1)))
                    : DurationRange.parseDuration(item));
        }
        if (waits.isEmpty()) {
            throw new IllegalArgumentException("expected waits such as 1m,5m,30m,2h (or none)");
        }
        return List.copyOf(waits);
    }
}
