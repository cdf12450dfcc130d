package org.topupbatch.track;

import java.time.Duration;
import java.time.Instant;

/**
 * When to look at a pending or unknown order again. Polling is the backstop behind webhooks,
 * so it starts gently and backs off: 5 s, 10 s, 20 s ... at most every 5 minutes. When signed
 * webhooks settle orders, the first look at a pending order waits long enough for its webhook
 * (a look-up is then only the safety net for a webhook that never came), and backs off from
 * there. An order whose outcome is unknown is looked at sooner: money may be at stake.
 */
public final class CheckSchedule {

    static final Duration FIRST_PENDING_CHECK = Duration.ofSeconds(5);
    static final Duration FIRST_UNKNOWN_CHECK = Duration.ofSeconds(2);
    /** How long a fresh pending order waits for its signed webhook before the provider is asked. */
    static final Duration WEBHOOK_WAIT = Duration.ofSeconds(75);
    static final Duration LONGEST = Duration.ofMinutes(5);

    private CheckSchedule() {
    }

    /** The time of check number {@code checks + 1}, given {@code checks} already made (polling alone). */
    public static Instant next(Instant now, int checks, boolean unknown) {
        return next(now, checks, unknown, false);
    }

    /** As {@link #next(Instant, int, boolean)}; {@code webhooksSettle}: signed webhooks settle orders. */
    public static Instant next(Instant now, int checks, boolean unknown, boolean webhooksSettle) {
        Duration first = unknown ? FIRST_UNKNOWN_CHECK : webhooksSettle ? WEBHOOK_WAIT : FIRST_PENDING_CHECK;
        long ms = first.toMillis() << Math.min(Math.max(checks, 0), 10);
        return now.plusMillis(Math.min(ms, LONGEST.toMillis()));
    }
}
