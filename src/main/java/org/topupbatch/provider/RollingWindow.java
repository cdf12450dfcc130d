package org.topupbatch.provider;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.PriorityQueue;

/**
 * The rolling minute of the rate budget (see {@link RateBudget}): a request counts from its
 * reservation until {@link #WINDOW} plus {@link #MARGIN} after its answer came back, so a slot is
 * used again no sooner than 61 s after the answer. Not thread-safe: the budget guards it.
 */
final class RollingWindow {

    static final Duration WINDOW = Duration.ofSeconds(60);
    static final Duration MARGIN = Duration.ofMillis(1000);
    /** The wait when every slot is taken by a request still on the wire: one of them ends soon. */
    static final long IN_FLIGHT_RECHECK_MILLIS = 50;

    /**
     * When each counted request ended (or, for one a dead process left open, will have ended at
     * the latest), soonest first; a request in flight in this process counts in {@link #inFlight}.
     */
    private final PriorityQueue<Instant> ended = new PriorityQueue<>();
    private int inFlight;

    /** The oldest end of a request that still counts at {@code now}. */
    static Instant oldestThatCounts(Instant now) {
        return now.minus(WINDOW).minus(MARGIN);
    }

    /**
     * When a journaled call ended for the window: its answer, or for one left open (its process
     * died, or it is still on the wire in another process) its reservation plus the longest call.
     */
    static Instant endOf(ProviderCall call, Duration longestCall) {
        return call.completed() ? call.answeredAt() : call.reservedAt().plus(longestCall);
    }

    /** A journaled call refused with 429 was not taken by the provider: it never counts. */
    static boolean refused(ProviderCall call) {
        return call.httpStatus() != null && call.httpStatus() == 429;
    }

    /** A request leaves now: it counts until its answer, and a window after. */
    void reserve() {
        inFlight++;
    }

    /** The request's answer came at {@code at}: it counts a window from then. */
    void answered(Instant at) {
        inFlight--;
        ended.add(at);
    }

    /** The request was not taken (refused with 429, or never sent): its slot is free again. */
    void givenBack() {
        inFlight--;
    }

    /** A request journaled earlier (before a restart) that ends at {@code end}. */
    void counted(Instant end) {
        ended.add(end);
    }

    /** Forgets every ended request (a restart judges again from the journal); those in flight stay. */
    void clear() {
        ended.clear();
    }

    /** Requests that count at {@code now}, those in flight included. */
    int count(Instant now) {
        forgetOld(now);
        return inFlight + ended.size();
    }

    /** Requests that ended and still count (a restart's log line). */
    int ended() {
        return ended.size();
    }

    /**
     * How long a request must wait at {@code now} for a slot; 0 when one is free. {@code room} is how
     * many may count at once; {@code othersEnded} are other processes' calls, which count too;
     * no wait is longer than {@code longestWaitMillis} (the others may change meanwhile).
     */
    long waitMillis(Instant now, int room, Collection<Instant> othersEnded, long longestWaitMillis) {
        if (count(now) + othersEnded.size() < room) {
            return 0;
        }
        Instant soonest = ended.peek();
        for (Instant other : othersEnded) {
            soonest = soonest == null || other.isBefore(soonest) ? other : soonest;
        }
        if (soonest == null) {
            return IN_FLIGHT_RECHECK_MILLIS;
        }
        Instant frees = soonest.plus(WINDOW).plus(MARGIN);
        return Math.max(1, Math.min(longestWaitMillis, Duration.between(now, frees).toMillis()));
    }

    private void forgetOld(Instant now) {
        Instant cutoff = oldestThatCounts(now);
        while (!ended.isEmpty() && !ended.peek().isAfter(cutoff)) {
            ended.poll();
        }
    }
}
