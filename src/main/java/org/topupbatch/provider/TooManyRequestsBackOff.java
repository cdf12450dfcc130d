package org.topupbatch.provider;

import java.time.Duration;
import java.time.Instant;

/**
 * The pause after the provider answered 429, so that every caller backs off together rather than
 * each hammering on its own: once per episode (the 429s of requests that left before the pause
 * began do not lengthen it), as long as {@code Retry-After} asks, else doubling from 2 s to at most
 * a window while 429s go on. Not thread-safe: the budget guards it.
 */
final class TooManyRequestsBackOff {

    private static final long FIRST_PAUSE_MILLIS = 2000;
    private static final long LONGEST_RETRY_AFTER_SECONDS = 86_400;

    private Instant pausedUntil = Instant.MIN;
    private int consecutive429;
    /** When the latest pause began: a 429 to a request that left before it belongs to that episode. */
    private Instant episodeStart = Instant.MIN;

    /** How long a request must wait at {@code now}; 0 when no pause holds. */
    long waitMillis(Instant now) {
        return now.isBefore(pausedUntil) ? Duration.between(now, pausedUntil).toMillis() + 1 : 0;
    }

    /** A request reserved at {@code reservedAt} got HTTP {@code status} (0: no answer came). */
    void answered(Instant reservedAt, int status) {
        if (!reservedAt.isAfter(episodeStart)) {
            return; // left before the pause began: its answer says nothing about the pause
        }
        if (status == 429) {
            consecutive429++; // the pause was not enough
        } else if (status > 0) {
            consecutive429 = 0;
        }
    }

    /**
     * The provider answered 429 at {@code now}: pauses for as long as it asked, else doubling.
     * Returns the new episode's pause in milliseconds, or 0 when the pause already under way holds.
     */
    long pause(Long retryAfterSeconds, Instant now) {
        long ms;
        if (retryAfterSeconds != null && retryAfterSeconds > 0) {
            ms = Math.min(retryAfterSeconds, LONGEST_RETRY_AFTER_SECONDS) * 1000;
        } else {
            ms = Math.min(RollingWindow.WINDOW.toMillis(), FIRST_PAUSE_MILLIS << Math.min(5, Math.max(0, consecutive429 - 1)));
        }
        Instant until = now.plusMillis(ms);
        if (!now.isBefore(pausedUntil) && until.isAfter(pausedUntil)) {
            // a new episode: the 429s of requests already on the wire belong to it, not to another
            episodeStart = now;
            pausedUntil = until;
            return ms;
        }
        if (retryAfterSeconds != null && until.isAfter(pausedUntil)) {
            pausedUntil = until; // the provider asked for longer
        }
        return 0;
    }

    /** No pause and no episode (a restart judges again). */
    void reset() {
        pausedUntil = Instant.MIN;
        consecutive429 = 0;
        episodeStart = Instant.MIN;
    }
}
