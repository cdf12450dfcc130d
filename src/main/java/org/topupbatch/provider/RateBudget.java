package org.topupbatch.provider;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one rate budget every provider request passes (a {@link RequestGate}): a coordinator of the
 * parts that each keep one rule, under one lock.
 *
 * <ul>
 *   <li>{@link RollingWindow}: a rolling window, not a per-minute counter: a request may start only
 *   when fewer than {@code perMinute} requests counted within the last window. A request counts
 *   from its reservation until a window plus a margin after its answer came back. The provider
 *   counts a request when it arrives, somewhere between our send and our receipt of the answer, so
 *   counting from the answer can only over-estimate. The margin absorbs clock granularity: a slot is
 *   used again no sooner than 61 s after the answer, so even a provider that stamps arrivals in
 *   whole seconds never sees two requests of one slot in one window. The price: a slot serves one
 *   request per 61 s plus its latency, so a long batch uses about 97.5 % of the limit
 *   (BENCHMARKS.md, "Order figures").</li>
 *   <li>{@link EvenPacing}: requests also leave evenly, at most {@code perMinute/60} a second with
 *   bursts of at most {@code perMinute/60}.</li>
 *   <li>{@link DailyQuota}: the per-day limit, on the provider's UTC day.</li>
 *   <li>{@link TooManyRequestsBackOff}: a pause after a 429 that every caller keeps. A request
 *   answered 429 was not taken: it does not count in the window or the day.</li>
 *   <li>{@link OtherProcessesCalls}: other processes' calls on the same journal count in all of the
 *   above, and the limits they learned are taken in the same reading. The journal is read without
 *   this budget's lock; a request only judges by the last reading under it.</li>
 * </ul>
 *
 * <p>Every reservation is journaled (committed before the request leaves) and completed when the
 * answer comes, and the account's limits are remembered whenever they are learned, so that
 * {@link #restore} rebuilds the window, the pace and the day after a restart exactly, judged by the
 * right limit at once.
 */
public final class RateBudget implements RequestGate {

    /** Longest single wait between two looks at the clock (a day can roll meanwhile). */
    private static final long MAX_WAIT_MILLIS = 1000;
    /** How long an order waits when a look-up, a balance read or a report waits for the same slot. */
    private static final long YIELD_MILLIS = 5;

    /** How a caller waits for the budget; tests pass one that moves their clock instead of sleeping. */
    public interface Waiter {
        /** Waits on {@code lock} (held by the caller) for at most {@code millis}, or until notified. */
        void waitOn(Object lock, long millis) throws InterruptedException;

        Waiter REAL = Object::wait;
    }

    private static final Logger LOG = LoggerFactory.getLogger(RateBudget.class);

    private final Clock clock;
    private final CallLog callLog;
    private final Duration longestCall;
    private final Waiter waiter;
    private final RollingWindow window = new RollingWindow();
    private final EvenPacing pacing = new EvenPacing();
    private final DailyQuota day;
    private final TooManyRequestsBackOff backOff = new TooManyRequestsBackOff();
    private final OtherProcessesCalls others;
    private int perMinute;
    /** When the limits judged by were learned: a process that learned them later is followed. */
    private Instant limitsLearnedAt = Instant.MIN;
    private long waitsLogged;
    /** Callers other than create-order waiting for a slot: look-ups, balances, reports go first. */
    private int othersWaiting;
    /**
     * Set without this budget's lock, and looked at after every journal read: on a cut link that read
     * does not come back, and a node stepping down must not wait for it (docs/two-nodes.md#two-nodes).
     */
    private volatile boolean refusing;

    /**
     * A budget with an empty window.
     *
     * @param longestCall the longest a request can take from reservation to its end (the HTTP
     *                    timeouts): a reservation a dead process left open is taken to have ended then
     */
    public RateBudget(Clock clock, CallLog callLog, Duration longestCall, Waiter waiter, int perMinute, long perDay) {
        this.clock = clock;
        this.callLog = callLog;
        this.longestCall = longestCall;
        this.waiter = waiter;
        this.perMinute = Math.max(1, perMinute);
        this.day = new DailyQuota(perDay, clock.instant());
        this.others = new OtherProcessesCalls(callLog, longestCall);
    }

    /**
     * The budget as the journal left it: the remembered limits (or {@code firstStart} when none
     * were ever learned), today's usage, and every call that may still count in the window.
     */
    public static RateBudget restore(Clock clock, CallLog callLog, Duration longestCall, Waiter waiter,
                                     AccountLimits firstStart) {
        Optional<AccountLimits> remembered = callLog.rememberedLimits();
        AccountLimits limits = remembered.orElse(firstStart);
        RateBudget budget = new RateBudget(clock, callLog, longestCall, waiter, limits.perMinute(), limits.perDay());
        budget.rebuild(remembered);
        if (remembered.isPresent()) {
            LOG.info("Rate budget: {} requests per minute, {} per day (as last learned from the provider)",
                    limits.perMinute(), limits.perDay());
        }
        return budget;
    }

    /**
     * Forgets what this process counted and judges again from the journal, as {@link #restore}
     * does: for a standby that becomes the leader, whose window holds the calls another node made.
     */
    public void restoreFromJournal() {
        rebuild(callLog.rememberedLimits());
    }

    /**
     * Judges from the journal alone: the remembered limits, today's usage as the provider last
     * reported it plus every call journaled since, and every call that may still count in the
     * window and the pace (a completed one until a window after its answer, one a dead process left
     * open as if its answer had come at the latest possible moment). Reads without the lock.
     */
    private void rebuild(Optional<AccountLimits> remembered) {
        Instant now = clock.instant();
        List<ProviderCall> calls = callLog.callsSince(
                RollingWindow.oldestThatCounts(now).minus(longestCall).minus(RollingWindow.WINDOW));
        Instant countFrom = DailyQuota.startOfDay(now);
        long reported = 0;
        if (remembered.isPresent() && !remembered.get().learnedAt().isBefore(countFrom)) {
            reported = remembered.get().usedToday();
            countFrom = remembered.get().learnedAt();
        }
        long usedToday = reported + callLog.countCallsSince(countFrom);
        synchronized (this) {
            remembered.ifPresent(this::judgeBy);
            window.clear();
            pacing.reset();
            backOff.reset();
            day.restart(now, usedToday);
            seed(calls, now);
            notifyAll();
        }
    }

    /** Puts the journaled calls that still count into the window and the pace (holding the lock). */
    private void seed(List<ProviderCall> calls, Instant now) {
        Instant oldestThatCounts = RollingWindow.oldestThatCounts(now);
        int open = 0;
        List<Instant> starts = new ArrayList<>();
        for (ProviderCall call : calls) {
            others.own(call.id()); // counted here, so never again as another process's
            if (RollingWindow.refused(call)) {
                continue;
            }
            starts.add(call.reservedAt());
            Instant end = RollingWindow.endOf(call, longestCall);
            if (end.isAfter(oldestThatCounts)) {
                window.counted(end);
                open += call.completed() ? 0 : 1;
            }
        }
        starts.sort(null);
        starts.forEach(at -> pacing.left(at, perMinute)); // the last run's pace goes on
        if (window.ended() > 0) {
            LOG.info("Rate budget seeded with {} requests of the last minute ({} left without an answer by the last run)",
                    window.ended(), open);
        }
    }

    /** The limits learned at {@code limits.learnedAt()} from now on. */
    private void judgeBy(AccountLimits limits) {
        perMinute = Math.max(1, limits.perMinute());
        day.setLimit(limits.perDay());
        limitsLearnedAt = limits.learnedAt();
    }

    /**
     * Learns the account's limits (from its profile or tier) and how much of today it has used,
     * and remembers them in the journal for the next start and for the other processes.
     */
    public void setLimits(int perMinute, long perDay, long usedToday) {
        Instant now = clock.instant();
        AccountLimits learned = new AccountLimits(Math.max(1, perMinute), Math.max(1, perDay), usedToday, now);
        synchronized (this) {
            if (perMinute != this.perMinute || perDay != day.limit()) {
                LOG.info("Rate budget: {} requests per minute, {} per day", perMinute, perDay);
            }
            judgeBy(learned);
            day.roll(now);
            day.atLeast(usedToday);
            notifyAll();
        }
        try {
            callLog.rememberLimits(learned);
        } catch (RuntimeException e) {
            LOG.warn("Could not remember the account's limits in the journal: {}", e.getMessage());
        }
    }

    /** The limits the budget judges by now, with today's usage as counted here. */
    public synchronized AccountLimits limits() {
        return new AccountLimits(perMinute, day.limit(), day.used(), clock.instant());
    }

    /**
     * Waits for a slot, reserves it, and journals the reservation before returning, so that a
     * request is never sent without a record a restart can count. When the journal cannot record
     * it, the slot is given back and nothing is sent.
     */
    @Override
    public Ticket enter(String operation) throws InterruptedException {
        // Orders yield to every other caller: a status look-up, a balance read or a batch's report
        // takes the next free slot, so it never waits for a long batch's queue (the orders' share of
        // the budget is all the rest, so a long batch still runs at the limit).
        boolean order = ProviderClient.CREATE_ORDER.equals(operation);
        Instant reservedAt;
        if (!order) {
            synchronized (this) {
                othersWaiting++;
            }
        }
        try {
            reservedAt = waitForSlot(order);
        } finally {
            if (!order) {
                synchronized (this) {
                    othersWaiting--;
                    notifyAll();
                }
            }
        }
        long callId;
        try {
            callId = callLog.reserveCall(reservedAt, operation);
            synchronized (this) {
                if (others.own(callId)) {
                    day.giveBack(); // a reading in between counted it as another process's too
                }
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                window.givenBack();
                day.giveBack();
                notifyAll();
            }
            // Not sent, so nothing can have reached the provider: callers treat it as a refused connection.
            throw new ProviderException(operation, ProviderError.CONNECTION_FAILED, 0, false,
                    "not sent: the journal could not record the call (" + e.getMessage() + ")", null, e);
        }
        return status -> completed(callId, reservedAt, status);
    }

    /**
     * Waits until a request may leave, and takes its slot; returns when. The journal is read for
     * other processes' calls without the lock; the slot is judged and taken under it.
     */
    private Instant waitForSlot(boolean order) throws InterruptedException {
        while (true) {
            OtherProcessesCalls.Reading reading = readOthersIfDue();
            synchronized (this) {
                if (reading != null) {
                    takeReading(reading);
                }
                if (refusing) {
                    // also a step-down while the journal was read (on a cut link that read can take long)
                    throw new InterruptedException("the rate budget refuses new requests: the run is stopping");
                }
                Instant now = clock.instant();
                if (reading == null && others.stale(now)) {
                    // never judged by an old reading: wait for the one under way, or read again
                    if (others.beingRead()) {
                        waiter.waitOn(this, MAX_WAIT_MILLIS);
                    }
                    continue;
                }
                day.roll(now);
                long waitMs = waitMillis(now);
                if (waitMs <= 0 && order && othersWaiting > 0) {
                    waitMs = YIELD_MILLIS; // the slot is another caller's: it takes it at its next look
                }
                if (waitMs <= 0) {
                    window.reserve();
                    day.take();
                    pacing.left(now, perMinute);
                    return now;
                }
                if (waitsLogged++ % 500 == 0 && waitMs > 5000) {
                    LOG.info("Rate budget: waiting {} s before the next provider request", (waitMs + 999) / 1000);
                }
                waiter.waitOn(this, Math.min(waitMs, MAX_WAIT_MILLIS));
            }
        }
    }

    /** Reads the journal when the last reading is stale and nobody else reads it; null otherwise. */
    private OtherProcessesCalls.Reading readOthersIfDue() {
        synchronized (this) {
            if (!others.claimRead(clock.instant())) {
                return null;
            }
        }
        try {
            return others.read(clock.instant()); // without the lock: a slow journal holds up no one else
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                others.abandonRead();
                notifyAll();
            }
            throw e;
        }
    }

    /** Other processes' new calls take their place in the pace and the day; their later-learned limits are followed. */
    private void takeReading(OtherProcessesCalls.Reading reading) {
        for (ProviderCall call : others.take(reading)) {
            pacing.left(call.reservedAt(), perMinute);
            day.countOther(call.reservedAt());
        }
        reading.limits().filter(l -> l.learnedAt().isAfter(limitsLearnedAt)).ifPresent(l -> {
            if (l.perMinute() != perMinute || l.perDay() != day.limit()) {
                LOG.info("Rate budget: {} requests per minute, {} per day (as another process learned them)",
                        l.perMinute(), l.perDay());
            }
            judgeBy(l);
        });
        notifyAll();
    }

    /** How long a caller must wait now by every rule; 0 when a request may leave. */
    private long waitMillis(Instant now) {
        long wait = Math.max(backOff.waitMillis(now), day.waitMillis(now));
        if (wait <= 0) {
            int room = perMinute - others.margin(perMinute);
            wait = window.waitMillis(now, room, others.ended(), OtherProcessesCalls.REFRESH.toMillis());
        }
        return Math.max(wait, pacing.waitMillis(now, perMinute));
    }

    @Override
    public void refuseWaiting() {
        refusing = true; // never blocks: the waiters look again within MAX_WAIT_MILLIS
    }

    @Override
    public void acceptAgain() {
        refusing = false;
    }

    private void completed(long callId, Instant reservedAt, int httpStatus) {
        Instant now = clock.instant();
        synchronized (this) {
            if (httpStatus == 429) {
                window.givenBack(); // refused, not taken: its slot and its day's count are given back
                day.giveBack();
            } else {
                window.answered(now);
            }
            backOff.answered(reservedAt, httpStatus);
            notifyAll();
        }
        try {
            callLog.completeCall(callId, now, httpStatus);
        } catch (RuntimeException e) {
            // The reservation is recorded: a restart counts the call as if its answer came at the latest moment.
            LOG.warn("Could not record the end of a provider call in the journal: {}", e.getMessage());
        }
    }

    /**
     * Stops every caller for a while after the provider said 429: as long as it asked
     * (Retry-After), else doubling from 2 s up to one window.
     */
    public synchronized void backOff(Long retryAfterSeconds) {
        long ms = backOff.pause(retryAfterSeconds, clock.instant());
        if (ms > 0) {
            LOG.warn("Provider answered 429 (rate limit); pausing all requests for {} ms", ms);
        }
        notifyAll();
    }

    /**
     * Judges by the rolling window and the day alone, without the even pace: for tests of the window's
     * own rules, which would otherwise wait out the pace at every step. Returns this budget.
     */
    public synchronized RateBudget withoutPacing() {
        pacing.off();
        return this;
    }

    /** Requests counted in the window now, including those in flight (for tests and metrics). */
    public synchronized int inWindow() {
        return window.count(clock.instant());
    }
}
