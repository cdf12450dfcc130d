package org.topupbatch.observe;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether each provider (with several accounts, each account) answered its latest request, and
 * since when it has not: learned from the requests themselves as they pass the metered gate, so a
 * page view asks no provider. Any answer counts, an error too; only a request that got none (no
 * connection, a timeout) makes a provider count as out of reach, until its next answer.
 */
final class ProviderReach {

    private final Clock clock;
    private final Map<String, Instant> unansweredSince = new ConcurrentHashMap<>();

    ProviderReach(Clock clock) {
        this.clock = clock;
    }

    /** A request to {@code provider} is over: its HTTP status, or 0 when no answer came. */
    void completed(String provider, int httpStatus) {
        if (httpStatus == 0) {
            unansweredSince.putIfAbsent(provider, clock.instant()); // since the first of a run of unanswered ones
        } else {
            unansweredSince.remove(provider);
        }
    }

    /** When the run of unanswered requests to {@code provider} began; empty when its latest one was answered. */
    Optional<Instant> unansweredSince(String provider) {
        return Optional.ofNullable(unansweredSince.get(provider));
    }
}
