package org.topupbatch.observe;

import java.time.Clock;
import java.time.Instant;

/**
 * Whether the provider accepts our credentials, as last learned: from the start-up check and
 * from every answer since (a 401 or 403 means refused, any 2xx accepted). Readiness reports it
 * without calling the provider on every probe.
 */
public final class ProviderAccess {

    /** What the provider last said about our credentials. */
    public enum State { UNCHECKED, ACCEPTED, REFUSED }

    /** One learned state, with when it was learned and (when refused) why. */
    public record Reading(State state, String detail, Instant at) {
    }

    private final Clock clock;
    private volatile Reading last;

    public ProviderAccess(Clock clock) {
        this.clock = clock;
        this.last = new Reading(State.UNCHECKED, "the start-up check has not run yet", clock.instant());
    }

    public Reading last() {
        return last;
    }

    public void accepted() {
        if (last.state() != State.ACCEPTED) {
            last = new Reading(State.ACCEPTED, null, clock.instant());
        }
    }

    /** {@code detail} names the answer (never a secret or signature). */
    public void refused(String detail) {
        last = new Reading(State.REFUSED, detail, clock.instant());
    }

    /** Learns from an HTTP answer; other statuses (429, 5xx, none) say nothing about the credentials. */
    public void answered(String operation, int httpStatus) {
        if (httpStatus == 401 || httpStatus == 403) {
            refused("the provider refused the credentials (HTTP " + httpStatus + " to " + operation + ")");
        } else if (httpStatus >= 200 && httpStatus < 300) {
            accepted();
        }
    }
}
