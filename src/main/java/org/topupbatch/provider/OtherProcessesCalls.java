package org.topupbatch.provider;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What other processes on the same journal did with the account (a command beside the service:
 * {@code reconcile} pages through history, {@code plan} reads prices; another node): their calls,
 * which count in the window, the pace and the day like this process's own, and the limits they
 * last learned. Read from the journal every {@link #REFRESH} by one caller at a time, without the
 * budget's lock ({@link #read}); the budget then takes the reading under its lock ({@link #take}),
 * so that a slow journal (a cut link) never holds up a request that needs no reading.
 * Not thread-safe apart from {@link #read}: the budget guards it.
 */
final class OtherProcessesCalls {

    /** How often the journal is read. */
    static final Duration REFRESH = Duration.ofMillis(500);
    /** Past this many remembered ids, those older than any call that can still count are dropped. */
    private static final int IDS_KEPT = 100_000;

    /** One look at the journal: the calls that may still count, and the limits last remembered. */
    record Reading(Instant at, List<ProviderCall> calls, Optional<AccountLimits> limits, boolean failed) {
    }

    private final CallLog callLog;
    private final Duration longestCall;
    /** Ids of the calls this process reserved or seeded: every other journaled call is another process's. */
    private final Set<Long> own = new HashSet<>();
    /** Other processes' calls already counted in the pace and the day. */
    private final Set<Long> taken = new HashSet<>();
    /** Other processes' calls that count in the window now: when each ended (or will have, at the latest). */
    private Map<Long, Instant> ended = new LinkedHashMap<>();
    private Instant readAt = Instant.MIN;
    private boolean reading;

    OtherProcessesCalls(CallLog callLog, Duration longestCall) {
        this.callLog = callLog;
        this.longestCall = longestCall;
    }

    /**
     * Whether the caller should read the journal now: the last reading is older than {@link #REFRESH}
     * and nobody reads it. True makes the caller the reader until it hands its reading to {@link #take}.
     */
    boolean claimRead(Instant now) {
        if (reading || !stale(now)) {
            return false;
        }
        reading = true;
        return true;
    }

    /** Whether the last reading is too old to judge by at {@code now}. */
    boolean stale(Instant now) {
        return !now.isBefore(readAt.plus(REFRESH));
    }

    /** Whether a caller is reading the journal now (the others wait for its reading, not for the lock). */
    boolean beingRead() {
        return reading;
    }

    /** Reads the journal; called WITHOUT the budget's lock, by the one caller {@link #claimRead} chose. */
    Reading read(Instant now) {
        try {
            List<ProviderCall> calls = callLog.callsSince(RollingWindow.oldestThatCounts(now).minus(longestCall));
            return new Reading(now, calls, callLog.rememberedLimits(), false);
        } catch (RuntimeException e) {
            // judged again at the next look; this process's own calls still count meanwhile
            return new Reading(now, List.of(), Optional.empty(), true);
        }
    }

    /**
     * Takes a reading in (under the budget's lock): the calls of other processes that count in the
     * window from now on; returns those new since the last reading, for the pace and the day.
     */
    List<ProviderCall> take(Reading r) {
        reading = false;
        readAt = r.at();
        if (r.failed()) {
            return List.of();
        }
        Instant oldestThatCounts = RollingWindow.oldestThatCounts(r.at());
        Map<Long, Instant> counted = new LinkedHashMap<>();
        List<ProviderCall> fresh = new ArrayList<>();
        for (ProviderCall call : r.calls()) {
            if (own.contains(call.id()) || RollingWindow.refused(call)) {
                continue;
            }
            Instant end = RollingWindow.endOf(call, longestCall);
            if (end.isAfter(oldestThatCounts)) {
                counted.put(call.id(), end);
            }
            if (taken.add(call.id())) {
                fresh.add(call);
            }
        }
        ended = counted;
        if (own.size() > IDS_KEPT) {
            long oldestId = r.calls().stream().mapToLong(ProviderCall::id).min().orElse(Long.MAX_VALUE);
            own.removeIf(id -> id < oldestId);
            taken.removeIf(id -> id < oldestId);
        }
        return fresh;
    }

    /** Gives up a reading that never came back (the reader failed): the next caller reads again. */
    void abandonRead() {
        reading = false;
    }

    /**
     * The call {@code id} is this process's. True when a reading taken between its journaling and
     * this moment had counted it as another's (the caller then gives back its day's count).
     */
    boolean own(long id) {
        own.add(id);
        ended.remove(id);
        return taken.remove(id);
    }

    /** When each other process's call that counts in the window ended (or will have, at the latest). */
    Collection<Instant> ended() {
        return ended.values();
    }

    /**
     * While another process calls too, the slots it may have taken since the last reading (its pace
     * over {@link #REFRESH}, and one more) are left free: two processes that each see the window
     * one short of full must not both send.
     */
    int margin(int perMinute) {
        if (ended.isEmpty()) {
            return 0;
        }
        return (int) Math.ceil(perMinute / 60.0 * REFRESH.toMillis() / 1000.0) + 1;
    }
}
