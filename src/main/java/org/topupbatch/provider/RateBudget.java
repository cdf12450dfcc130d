package org.topupbatch.provider;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.PriorityQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.CallLog;
import org.topupbatch.provider.ProviderCall;

/**
 * The one rate budget every provider request passes (a {@link RequestGate}).
 *
 * <p>A rolling window, not a per-minute counter: a request may start only when fewer than
 * {@code perMinute} requests counted within the last window. A request counts from the moment it
 * is reserved until {@link #WINDOW} after its answer came back. The provider counts a request
 * when it arrives, which is somewhere between our send and our receipt of the answer, so
 * counting from the answer can only over-estimate: the provider never sees more than the limit.
 * {@link #MARGIN} absorbs clock granularity: a slot is used again no sooner than 61 s after the
 * answer, so two requests sharing a slot arrive at least 61 s apart, and even a provider that
 * stamps arrivals in whole seconds and counts the 61 stamps from now-60 s to now sees them 61
 * stamps apart, never in one window. A smaller margin would not keep that promise. The price:
 * a slot serves one request per 61 s plus its latency (about 61.5 s at 400-1,200 ms), so a long
 * batch uses about 97.5 % of the limit (BENCHMARKS.md, "Order figures").
 *
 * <p>Every reservation is journaled (committed before the request leaves) and completed when the
 * answer comes, and the account's limits are remembered whenever they are learned, so that
 * {@link #restore} rebuilds the window after a restart exactly, judged by the right limit at once.
 *
 * <p>Even pacing: requests also leave evenly, at most {@code perMinute/60} a second with bursts of
 * at most {@code perMinute/60} (a token bucket; gold: 5 a second, 5 at once), well inside "in any
 * span of t seconds at most (limit/60)·t + limit/30". A provider behind a per-second gateway
 * (nginx's {@code limit_req}) refuses the rest of a burst, and requests that leave together may
 * arrive closer still, so the burst is half of what that rule allows. Rebuilt from the journal's
 * reservations after a restart or failover, as the window is.
 *
 * <p>Also: the per-day limit (the provider's UTC day), and a pause after a 429 so that every
 * caller backs off together rather than each hammering on its own: once per episode (the 429s of
 * requests that left before the pause began do not lengthen it), as long as {@code Retry-After}
 * asks, else doubling from 2 s to at most a window while 429s go on. A request answered 429 was
 * not taken: it does not count in the window or the day.
 */
public final class RateBudget implements RequestGate {

    static final Duration WINDOW = Duration.ofSeconds(60);
    static final Duration MARGIN = Duration.ofMillis(1000);
    /** Longest single wait between two looks at the clock (a day can roll meanwhile). */
    private static final long MAX_WAIT_MILLIS = 1000;
    /** How often the journal is read for other processes' calls (a command beside the service, say). */
    static final Duration OTHERS_REFRESH = Duration.ofMillis(500);

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
    /**
     * When each counted request ended (or, for one a dead process left open, will have ended at
     * the latest), soonest first; a request in flight in this process is in {@link #inFlight}.
     */
    private final PriorityQueue<Instant> ended = new PriorityQueue<>();
    private int inFlight;
    private int perMinute;
    private long perDay;
    private long usedToday;
    private LocalDate today;
    private Instant pausedUntil = Instant.MIN;
    private int consecutive429;
    /** When the latest 429 pause began: a 429 to a request that left before it belongs to that episode. */
    private Instant episodeStart = Instant.MIN;
    /** The token bucket's theoretical arrival time (GCRA): a request may leave while this is at most a burst ahead. */
    private Instant paceAt = Instant.EPOCH;
    private long waitsLogged;
    private volatile boolean paced = true;
    /** Callers other than create-order waiting for a slot: look-ups, balances, reports go first. */
    private int othersWaiting;
    /**
     * Set without this budget's monitor: a worker may hold the monitor while it reads other nodes' calls
     * from the journal, and on a cut link that read does not come back; a node stepping down must not
     * wait for it (README "Two nodes"). Waiting workers see the flag within MAX_WAIT_MILLIS.
     */
    private volatile boolean refusing;
    /** Ids of the calls this process reserved or seeded: every other journaled call is another process's. */
    private final java.util.Set<Long> own = new java.util.HashSet<>();
    /** Other processes' calls journaled since this one started, already taken into the pace. */
    private final java.util.Set<Long> othersPaced = new java.util.HashSet<>();
    /** Other processes' calls that count in the window now: when each ended (or will have, at the latest). */
    private java.util.List<Instant> othersEnded = java.util.List.of();
    private Instant othersReadAt = Instant.MIN;

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
        this.perDay = Math.max(1, perDay);
        this.today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
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
        budget.restoreUsage(remembered);
        budget.seed();
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
        Optional<AccountLimits> remembered = adoptRememberedLimits();
        synchronized (this) {
            ended.clear();
            today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
            pausedUntil = Instant.MIN;
            consecutive429 = 0;
            episodeStart = Instant.MIN;
            paceAt = Instant.EPOCH;
        }
        restoreUsage(remembered);
        seed();
    }

    /**
     * The account's limits as another process last learned them, when the journal remembers them
     * (several accounts on two nodes: a node calling an account it does not lead, to read its price
     * list or balance, judges the window by the limits its leader learned, not by a default tier's).
     */
    public Optional<AccountLimits> adoptRememberedLimits() {
        Optional<AccountLimits> remembered = callLog.rememberedLimits();
        synchronized (this) {
            remembered.ifPresent(l -> {
                perMinute = Math.max(1, l.perMinute());
                perDay = Math.max(1, l.perDay());
            });
        }
        return remembered;
    }

    /** Today's usage: as the provider last reported it, plus every call journaled since. */
    private synchronized void restoreUsage(Optional<AccountLimits> remembered) {
        Instant midnight = today.atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant countFrom = midnight;
        long reported = 0;
        if (remembered.isPresent() && !remembered.get().learnedAt().isBefore(midnight)) {
            reported = remembered.get().usedToday();
            countFrom = remembered.get().learnedAt();
        }
        usedToday = reported + callLog.countCallsSince(countFrom);
    }

    /**
     * Puts every journaled call that may still count into the window: a completed one until a
     * window after its answer, one left open by a dead process as if its answer had come at the
     * latest possible moment (its reservation plus {@code longestCall}).
     */
    private synchronized void seed() {
        Instant now = clock.instant();
        Instant oldestThatCounts = now.minus(WINDOW).minus(MARGIN);
        // A reservation older than this ended (answer or timeout) before the window began.
        Instant since = oldestThatCounts.minus(longestCall).minus(WINDOW);
        int open = 0;
        java.util.List<Instant> starts = new java.util.ArrayList<>();
        for (ProviderCall call : callLog.callsSince(since)) {
            own.add(call.id()); // counted here, so never again as another process's
            if (call.httpStatus() != null && call.httpStatus() == 429) {
                continue; // refused, not taken: never counted
            }
            starts.add(call.reservedAt());
            Instant end = call.completed() ? call.answeredAt() : call.reservedAt().plus(longestCall);
            if (end.isAfter(oldestThatCounts)) {
                ended.add(end);
                open += call.completed() ? 0 : 1;
            }
        }
        starts.sort(null);
        starts.forEach(this::paced); // the last run's pace goes on
        if (!ended.isEmpty()) {
            LOG.info("Rate budget seeded with {} requests of the last minute ({} left without an answer by the last run)",
                    ended.size(), open);
        }
    }

    /**
     * Learns the account's limits (from its profile or tier) and how much of today it has used,
     * and remembers them in the journal for the next start.
     */
    public void setLimits(int perMinute, long perDay, long usedToday) {
        Instant now = clock.instant();
        synchronized (this) {
            if (perMinute != this.perMinute || perDay != this.perDay) {
                LOG.info("Rate budget: {} requests per minute, {} per day", perMinute, perDay);
            }
            this.perMinute = Math.max(1, perMinute);
            this.perDay = Math.max(1, perDay);
            rollDay(now);
            this.usedToday = Math.max(this.usedToday, usedToday);
            notifyAll();
        }
        try {
            callLog.rememberLimits(new AccountLimits(Math.max(1, perMinute), Math.max(1, perDay), usedToday, now));
        } catch (RuntimeException e) {
            LOG.warn("Could not remember the account's limits in the journal: {}", e.getMessage());
        }
    }

    /** The limits the budget judges by now, with today's usage as counted here. */
    public synchronized AccountLimits limits() {
        return new AccountLimits(perMinute, perDay, usedToday, clock.instant());
    }

    /**
     * Waits for a slot, reserves it, and journals the reservation before returning, so that a
     * request is never sent without a record a restart can count. When the journal cannot record
     * it, the slot is given back and nothing is sent.
     */
    @Override
    public Ticket enter(String operation) throws InterruptedException {
        Instant reservedAt;
        // Orders yield to every other caller: a status look-up, a balance read or a batch's report
        // takes the next free slot, so it never waits for a long batch's queue (the orders' share of
        // the budget is all the rest, so a long batch still runs at the limit).
        boolean order = ProviderClient.CREATE_ORDER.equals(operation);
        synchronized (this) {
            if (!order) {
                othersWaiting++;
            }
            try {
                reservedAt = waitForSlot(order);
            } finally {
                if (!order) {
                    othersWaiting--;
                    notifyAll();
                }
            }
        }
        long callId;
        try {
            callId = callLog.reserveCall(reservedAt, operation);
            synchronized (this) {
                own.add(callId);
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                inFlight--;
                usedToday--;
                notifyAll();
            }
            // Not sent, so nothing can have reached the provider: callers treat it as a refused connection.
            throw new ProviderException(operation, ProviderError.CONNECTION_FAILED, 0, false,
                    "not sent: the journal could not record the call (" + e.getMessage() + ")", null, e);
        }
        Instant left = reservedAt;
        return status -> completed(callId, left, status);
    }

    /** Waits (holding this monitor) until a request may leave, and takes its slot; returns when. */
    private Instant waitForSlot(boolean order) throws InterruptedException {
        while (true) {
            if (refusing) {
                throw new InterruptedException("the rate budget refuses new requests: the run is stopping");
            }
            Instant now = clock.instant();
            forgetOld(now);
            rollDay(now);
            readOthers(now);
            if (refusing) {
                // a step-down while the journal was read (on a cut link that read can take long): no slot after it
                throw new InterruptedException("the rate budget refuses new requests: the run is stopping");
            }
            long waitMs = Math.max(waitMillis(now), paced ? paceMillis(now) : 0);
            if (waitMs <= 0 && order && othersWaiting > 0) {
                waitMs = 5; // the slot is another caller's: it takes it at its next look
            }
            if (waitMs <= 0) {
                inFlight++;
                usedToday++;
                paced(now);
                return now;
            }
            if (waitsLogged++ % 500 == 0 && waitMs > 5000) {
                LOG.info("Rate budget: waiting {} s before the next provider request", (waitMs + 999) / 1000);
            }
            waiter.waitOn(this, Math.min(waitMs, MAX_WAIT_MILLIS));
        }
    }

    @Override
    public void refuseWaiting() {
        refusing = true; // never blocks: the waiters look again within MAX_WAIT_MILLIS
    }

    @Override
    public void acceptAgain() {
        refusing = false;
    }

    /** How long the caller must wait now; 0 when a request may start. */
    private long waitMillis(Instant now) {
        if (now.isBefore(pausedUntil)) {
            return Duration.between(now, pausedUntil).toMillis() + 1;
        }
        if (usedToday >= perDay) {
            Instant midnight = today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
            return Math.max(1, Duration.between(now, midnight).toMillis());
        }
        if (inFlight + ended.size() + othersEnded.size() < perMinute - othersMargin()) {
            return 0;
        }
        Instant soonest = ended.peek();
        for (Instant other : othersEnded) {
            soonest = soonest == null || other.isBefore(soonest) ? other : soonest;
        }
        if (soonest == null) {
            return 50; // all slots are in flight: one will end soon
        }
        Instant frees = soonest.plus(WINDOW).plus(MARGIN);
        return Math.max(1, Math.min(OTHERS_REFRESH.toMillis(), Duration.between(now, frees).toMillis()));
    }

    private void completed(long callId, Instant reservedAt, int httpStatus) {
        Instant now = clock.instant();
        synchronized (this) {
            inFlight--;
            if (httpStatus == 429) {
                // refused, not taken: its slot and its day's count are given back
                usedToday = Math.max(0, usedToday - 1);
                if (reservedAt.isAfter(episodeStart)) {
                    consecutive429++; // left after the last pause began: the pause was not enough
                }
            } else {
                ended.add(now);
                if (httpStatus > 0 && reservedAt.isAfter(episodeStart)) {
                    consecutive429 = 0;
                }
            }
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
    public void backOff(Long retryAfterSeconds) {
        synchronized (this) {
            long ms;
            if (retryAfterSeconds != null && retryAfterSeconds > 0) {
                ms = Math.min(retryAfterSeconds, 86_400) * 1000;
            } else {
                ms = Math.min(WINDOW.toMillis(), 2000L << Math.min(5, Math.max(0, consecutive429 - 1)));
            }
            Instant now = clock.instant();
            Instant until = now.plusMillis(ms);
            if (!now.isBefore(pausedUntil) && until.isAfter(pausedUntil)) {
                // a new episode: the 429s of requests already on the wire belong to it, not to another
                episodeStart = now;
                pausedUntil = until;
                LOG.warn("Provider answered 429 (rate limit); pausing all requests for {} ms", ms);
            } else if (retryAfterSeconds != null && until.isAfter(pausedUntil)) {
                pausedUntil = until; // the provider asked for longer
            }
            notifyAll();
        }
    }

    /**
     * Judges by the rolling window and the day alone, without the even pace: for tests of the window's
     * own rules, which would otherwise wait out the pace at every step. Returns this budget.
     */
    public RateBudget withoutPacing() {
        paced = false;
        return this;
    }

    /** The pace's interval between two requests: a minute shared evenly by the per-minute limit. */
    private Duration interval() {
        return Duration.ofNanos(WINDOW.toNanos() / perMinute);
    }

    /** How many requests may leave at once: the per-second rate, at least one. */
    private int burst() {
        return Math.max(1, perMinute / 60);
    }

    /** How long the pace makes the caller wait now; 0 when a request may leave. */
    private long paceMillis(Instant now) {
        // a burst of b leaves at once when the bucket is full: the b-th finds paceAt (b - 1) intervals ahead
        Instant earliest = paceAt.minus(interval().multipliedBy(burst() - 1L));
        return now.isBefore(earliest) ? Math.max(1, Duration.between(now, earliest).toMillis()) : 0;
    }

    /** A request left at {@code at}: the bucket's theoretical arrival time moves on by one interval. */
    private void paced(Instant at) {
        paceAt = (paceAt.isAfter(at) ? paceAt : at).plus(interval());
    }

    /**
     * While another process calls too, the slots it may have taken since this one last looked (its
     * pace over {@link #OTHERS_REFRESH}, and one more) are left free: two processes that each see the
     * window one short of full must not both send.
     */
    private int othersMargin() {
        if (othersEnded.isEmpty()) {
            return 0;
        }
        return (int) Math.ceil(perMinute / 60.0 * OTHERS_REFRESH.toMillis() / 1000.0) + 1;
    }

    /**
     * Every {@link #OTHERS_REFRESH}, the calls other processes journaled (an operator's command beside
     * the service: {@code reconcile} pages through history, {@code plan} reads prices): they count in
     * the window like this process's own, and take their place in the pace, so that together the
     * processes keep to the account's limit. A call another process left open counts until its
     * reservation plus the longest call.
     */
    private void readOthers(Instant now) {
        if (now.isBefore(othersReadAt.plus(OTHERS_REFRESH))) {
            return;
        }
        othersReadAt = now;
        Instant oldestThatCounts = now.minus(WINDOW).minus(MARGIN);
        java.util.List<Instant> counted = new java.util.ArrayList<>();
        java.util.List<ProviderCall> calls;
        try {
            calls = callLog.callsSince(oldestThatCounts.minus(longestCall));
        } catch (RuntimeException e) {
            return; // the journal is judged again at the next look; this process's own calls still count
        }
        for (ProviderCall call : calls) {
            if (own.contains(call.id()) || call.httpStatus() != null && call.httpStatus() == 429) {
                continue;
            }
            Instant end = call.completed() ? call.answeredAt() : call.reservedAt().plus(longestCall);
            if (end.isAfter(oldestThatCounts)) {
                counted.add(end);
            }
            if (othersPaced.add(call.id())) {
                paced(call.reservedAt());
                if (LocalDate.ofInstant(call.reservedAt(), ZoneOffset.UTC).equals(today)) {
                    usedToday++; // the provider's day counts every process's requests
                }
            }
        }
        othersEnded = counted;
        if (own.size() > 100_000) {
            // a long-running service: ids older than any call that can still count are dropped
            long oldestId = calls.stream().mapToLong(ProviderCall::id).min().orElse(Long.MAX_VALUE);
            own.removeIf(id -> id < oldestId);
            othersPaced.removeIf(id -> id < oldestId);
        }
    }

    private void forgetOld(Instant now) {
        Instant cutoff = now.minus(WINDOW).minus(MARGIN);
        while (!ended.isEmpty() && !ended.peek().isAfter(cutoff)) {
            ended.poll();
        }
    }

    private void rollDay(Instant now) {
        LocalDate d = LocalDate.ofInstant(now, ZoneOffset.UTC);
        if (!d.equals(today)) {
            today = d;
            usedToday = 0;
        }
    }

    /** Requests counted in the window now, including those in flight (for tests and metrics). */
    public synchronized int inWindow() {
        forgetOld(clock.instant());
        return inFlight + ended.size();
    }
}
