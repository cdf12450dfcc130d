package org.topupbatch.order;

import java.time.Duration;
import java.time.Instant;

/**
 * When to look at a pending or unknown order again. Polling is the backstop behind webhooks,
 * so it starts gently and backs off: 5 s, 10 s, 20 s ... at most every 5 minutes. An order whose
 * outcome is unknown is looked at sooner: money may be at stake.
 */
public final class CheckSchedule {

    static final Duration FIRST_PENDING_CHECK = Duration.ofSeconds(5);
    static final Duration FIRST_UNKNOWN_CHECK = Duration.ofSeconds(2);
    static final Duration LONGEST = Duration.ofMinutes(5);

    private CheckSchedule() {
    }

    /** The time of check number {@code checks + 1}, given {@code checks} already made. */
    public static Instant next(Instant now, int checks, boolean unknown) {
        Duration first = unknown ? FIRST_UNKNOWN_CHECK : FIRST_PENDING_CHECK;
        long ms = first.toMillis() << Math.min(Math.max(checks, 0), 10);
        return now.plusMillis(Math.min(ms, LONGEST.toMillis()));
    }
}
