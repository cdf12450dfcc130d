package org.topupbatch.provider;

import java.time.Duration;
import java.time.Instant;

/**
 * Even pacing (see {@link RateBudget}): requests leave at most {@code perMinute/60} a second with
 * bursts of at most {@code perMinute/60}, a token bucket kept as its theoretical arrival time
 * (GCRA). A provider behind a per-second gateway refuses the rest of a burst, so the burst is half
 * of what the contract's "(limit/60)·t + limit/30" allows. Not thread-safe: the budget guards it.
 */
final class EvenPacing {

    /** The bucket's theoretical arrival time: a request may leave while this is at most a burst ahead. */
    private Instant paceAt = Instant.EPOCH;
    private boolean on = true;

    /** Judges without the pace from now on (tests of the window's own rules). */
    void off() {
        on = false;
    }

    /** How long the pace makes a request wait at {@code now}; 0 when it may leave. */
    long waitMillis(Instant now, int perMinute) {
        if (!on) {
            return 0;
        }
        // a burst of b leaves at once when the bucket is full: the b-th finds paceAt (b - 1) intervals ahead
        Instant earliest = paceAt.minus(interval(perMinute).multipliedBy(burst(perMinute) - 1L));
        return now.isBefore(earliest) ? Math.max(1, Duration.between(now, earliest).toMillis()) : 0;
    }

    /** A request left at {@code at} (here or in another process): the bucket moves on by one interval. */
    void left(Instant at, int perMinute) {
        paceAt = (paceAt.isAfter(at) ? paceAt : at).plus(interval(perMinute));
    }

    /** An empty bucket's pace, before a restart's calls are paced again. */
    void reset() {
        paceAt = Instant.EPOCH;
    }

    /** The interval between two requests: a minute shared evenly by the per-minute limit. */
    private static Duration interval(int perMinute) {
        return Duration.ofNanos(RollingWindow.WINDOW.toNanos() / perMinute);
    }

    /** How many requests may leave at once: the per-second rate, at least one. */
    private static int burst(int perMinute) {
        return Math.max(1, perMinute / 60);
    }
}
