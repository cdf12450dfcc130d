package org.topupbatch.provider;

import java.time.Duration;

/**
 * How long to wait before asking for the price list again after a read failed: the first wait, then
 * twice as long after each further failure, never longer than {@code longest} (the list's cache time, the
 * interval the provider wants between full reads anyway), and never shorter than the wait the provider
 * named (a 429's Retry-After). A refusal such as Digiflazz's rc 83 ("price list checked too often") thus
 * costs one request at 30 s, 1 min, 2 min, 4 min, then every 5 min, instead of one every 30 s.
 * With no list young enough to serve, rows wait for one, so the wait stays at the first.
 * Reset by a read that succeeds. Not thread-safe: its catalog calls it under its own lock.
 */
final class ReadBackOff {

    private final Duration first;
    private final Duration longest;
    private int failures;

    ReadBackOff(Duration first, Duration longest) {
        this.first = first;
        this.longest = longest.compareTo(first) < 0 ? first : longest;
    }

    /**
     * The wait after this failure. While a list still serves, waiting longer costs nothing; with none,
     * rows wait for the list, so the next read is tried after the first wait again (one request each time).
     */
    Duration after(RuntimeException failure, boolean listServing) {
        failures++;
        Duration named = namedWait(failure);
        if (!listServing) {
            return named.compareTo(first) > 0 ? named : first;
        }
        Duration wait = first;
        for (int i = 1; i < failures && wait.compareTo(longest) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        wait = wait.compareTo(longest) > 0 ? longest : wait;
        return named.compareTo(wait) > 0 ? named : wait;
    }

    /** How many reads in a row have failed. */
    int failures() {
        return failures;
    }

    void reset() {
        failures = 0;
    }

    /** The wait a 429 named (Retry-After), anywhere in the cause chain; zero when none did. */
    private static Duration namedWait(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ProviderException pe && pe.retryAfterSeconds() != null && pe.retryAfterSeconds() > 0) {
                return Duration.ofSeconds(pe.retryAfterSeconds());
            }
        }
        return Duration.ZERO;
    }
}
