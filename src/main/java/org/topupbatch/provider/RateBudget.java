package org.topupbatch.provider;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one rate budget every provider request passes (a {@link RequestGate}).
 *
 * <p>A rolling window, not a per-minute counter: a request may start only when fewer than
 * {@code perMinute} requests ended within the last window. A request counts from the moment it
 * is reserved until {@link #WINDOW} after its answer came back. The provider counts a request
 * when it arrives, which is somewhere between our send and our receipt of the answer, so
 * counting from the answer can only over-estimate: the provider never sees more than the limit.
 * {@link #MARGIN} absorbs clock granularity.
 *
 * <p>Also: the per-day limit (the provider's UTC day), and a pause after a 429 so that every
 * caller backs off together rather than each hammering on its own.
 */
public final class RateBudget implements RequestGate {

    static final Duration WINDOW = Duration.ofSeconds(60);
    static final Duration MARGIN = Duration.ofMillis(1000);

    /** Records every request durably, so a restart can be seeded (see {@link #seed}). */
    public interface CallLog {
        void record(Instant at, String operation, int httpStatus);

        CallLog NONE = (at, op, status) -> { };
    }

    private static final Logger LOG = LoggerFactory.getLogger(RateBudget.class);

    private final Clock clock;
    private final CallLog callLog;
    /** End times of counted requests, oldest first; an in-flight request is in {@link #inFlight}. */
    private final Deque<Instant> ended = new ArrayDeque<>();
    private int inFlight;
    private int perMinute;
    private long perDay;
    private long usedToday;
    private LocalDate today;
    private Instant pausedUntil = Instant.MIN;
    private int consecutive429;
    private long waitsLogged;

    public RateBudget(Clock clock, CallLog callLog, int perMinute, long perDay) {
        this.clock = clock;
        this.callLog = callLog;
        this.perMinute = perMinute;
        this.perDay = perDay;
        this.today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    /** Learns the account's limits (from its profile or tier) and how much of today it has used. */
    public synchronized void setLimits(int perMinute, long perDay, long usedToday) {
        if (perMinute != this.perMinute || perDay != this.perDay) {
            LOG.info("Rate budget: {} requests per minute, {} per day", perMinute, perDay);
        }
        this.perMinute = Math.max(1, perMinute);
        this.perDay = Math.max(1, perDay);
        rollDay(clock.instant());
        this.usedToday = Math.max(this.usedToday, usedToday);
        notifyAll();
    }

    /**
     * Seeds the window after a restart with the calls the journal recorded. The calls that were
     * in flight when the last process died were never recorded, so when the last recorded call is
     * recent, {@code assumedInFlight} more are assumed to have ended just now.
     */
    public synchronized void seed(Collection<Instant> recordedCalls, int assumedInFlight) {
        Instant now = clock.instant();
        Instant last = null;
        for (Instant at : recordedCalls) {
            if (at.isAfter(now.minus(WINDOW).minus(MARGIN))) {
                ended.addLast(at);
                last = at;
            }
        }
        if (last != null) {
            for (int i = 0; i < assumedInFlight; i++) {
                ended.addLast(now);
            }
        }
        if (!ended.isEmpty()) {
            LOG.info("Rate budget seeded with {} requests of the last minute", ended.size());
        }
    }

    @Override
    public Ticket enter(String operation) throws InterruptedException {
        synchronized (this) {
            while (true) {
                Instant now = clock.instant();
                forgetOld(now);
                rollDay(now);
                long waitMs = waitMillis(now);
                if (waitMs <= 0) {
                    inFlight++;
                    usedToday++;
                    break;
                }
                if (waitsLogged++ % 500 == 0 && waitMs > 5000) {
                    LOG.info("Rate budget: waiting {} s before the next provider request", (waitMs + 999) / 1000);
                }
                wait(Math.min(waitMs, 1000));
            }
        }
        return status -> completed(operation, status);
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
        if (inFlight + ended.size() < perMinute) {
            return 0;
        }
        if (ended.isEmpty()) {
            return 50; // all slots are in flight: one will end soon
        }
        Instant frees = ended.peekFirst().plus(WINDOW).plus(MARGIN);
        return Math.max(1, Duration.between(now, frees).toMillis());
    }

    private void completed(String operation, int httpStatus) {
        Instant now = clock.instant();
        synchronized (this) {
            inFlight--;
            ended.addLast(now);
            if (httpStatus == 429) {
                consecutive429++;
            } else if (httpStatus > 0) {
                consecutive429 = 0;
            }
            notifyAll();
        }
        try {
            callLog.record(now, operation, httpStatus);
        } catch (RuntimeException e) {
            LOG.warn("Could not record a provider call in the journal: {}", e.getMessage());
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
            Instant until = clock.instant().plusMillis(ms);
            if (until.isAfter(pausedUntil)) {
                pausedUntil = until;
                LOG.warn("Provider answered 429 (rate limit); pausing all requests for {} ms", ms);
            }
            notifyAll();
        }
    }

    private void forgetOld(Instant now) {
        Instant cutoff = now.minus(WINDOW).minus(MARGIN);
        Iterator<Instant> it = ended.iterator();
        while (it.hasNext() && !it.next().isAfter(cutoff)) {
            it.remove();
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
