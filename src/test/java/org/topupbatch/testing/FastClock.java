package org.topupbatch.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that runs {@code factor} times faster than the real one, for tests of minute-long windows
 * in seconds: the rate budget (which waits in real steps of at most a second and looks at its clock
 * again) and the sandbox's rate limiter both read it, so both see the same accelerated minute.
 */
public final class FastClock extends Clock {

    private final Instant start;
    private final long startNanos;
    private final long factor;

    public FastClock(Instant start, long factor) {
        this.start = start;
        this.startNanos = System.nanoTime();
        this.factor = factor;
    }

    /** How long {@code virtual} of this clock takes in real time. */
    public Duration real(Duration virtual) {
        return virtual.dividedBy(factor);
    }

    @Override
    public Instant instant() {
        return start.plusNanos((System.nanoTime() - startNanos) * factor);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
