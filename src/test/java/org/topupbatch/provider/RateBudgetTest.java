package org.topupbatch.provider;

import org.topupbatch.testing.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class RateBudgetTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private final List<String> recorded = new ArrayList<>();
    private final RateBudget budget = new RateBudget(clock, (at, op, status) -> recorded.add(op + ":" + status), 5, 1000);

    @Test
    void lets_the_limit_through_then_waits_for_the_window_to_roll() throws Exception {
        for (int i = 0; i < 5; i++) {
            budget.enter("profile").completed(200);
            clock.advance(Duration.ofSeconds(1));
        }
        CompletableFuture<Void> sixth = CompletableFuture.runAsync(() -> enterQuietly("profile"));
        assertBlocked(sixth);
        // The first request ended at t=0: it leaves the window after 60 s plus the margin.
        clock.advance(Duration.ofSeconds(55)); // t = 60 s
        assertBlocked(sixth);
        clock.advance(Duration.ofSeconds(2)); // t = 62 s
        sixth.get(3, TimeUnit.SECONDS);
        assertThat(recorded).hasSize(6).allMatch(s -> s.equals("profile:200"));
    }

    @Test
    void requests_in_flight_count_against_the_window() throws Exception {
        List<RequestGate.Ticket> open = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            open.add(budget.enter("create-order"));
        }
        CompletableFuture<Void> sixth = CompletableFuture.runAsync(() -> enterQuietly("create-order"));
        assertBlocked(sixth);
        open.get(0).completed(200);
        // Ended now: it still counts for a whole window after its answer.
        assertBlocked(sixth);
        clock.advance(Duration.ofSeconds(62));
        sixth.get(3, TimeUnit.SECONDS);
    }

    @Test
    void a_restart_is_seeded_from_the_recorded_calls_and_assumes_some_in_flight() throws Exception {
        RateBudget restarted = new RateBudget(clock, RateBudget.CallLog.NONE, 5, 1000);
        Instant t = clock.instant();
        restarted.seed(List.of(t.minusSeconds(30), t.minusSeconds(20), t.minusSeconds(10)), 2);
        assertThat(restarted.inWindow()).isEqualTo(5);
        CompletableFuture<Void> next = CompletableFuture.runAsync(() -> enterQuietly(restarted, "balance"));
        assertBlocked(next);
        clock.advance(Duration.ofSeconds(32)); // the call of t-30s has left the window
        next.get(3, TimeUnit.SECONDS);
    }

    @Test
    void old_calls_do_not_count_after_a_restart() {
        RateBudget restarted = new RateBudget(clock, RateBudget.CallLog.NONE, 5, 1000);
        restarted.seed(List.of(clock.instant().minusSeconds(300)), 3);
        assertThat(restarted.inWindow()).isZero();
    }

    @Test
    void a_429_pauses_every_caller_for_the_time_the_provider_asked() throws Exception {
        budget.backOff(10L);
        CompletableFuture<Void> next = CompletableFuture.runAsync(() -> enterQuietly("balance"));
        assertBlocked(next);
        clock.advance(Duration.ofSeconds(11));
        next.get(3, TimeUnit.SECONDS);
    }

    @Test
    void the_daily_limit_holds_until_midnight_utc() throws Exception {
        budget.setLimits(100, 3, 2);
        budget.enter("balance").completed(200);
        CompletableFuture<Void> next = CompletableFuture.runAsync(() -> enterQuietly("balance"));
        assertBlocked(next);
        clock.advance(Duration.ofHours(14)); // 2026-11-22T00:00Z
        next.get(3, TimeUnit.SECONDS);
    }

    private void enterQuietly(String op) {
        enterQuietly(budget, op);
    }

    private static void enterQuietly(RateBudget b, String op) {
        try {
            b.enter(op).completed(200);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertBlocked(CompletableFuture<Void> f) throws Exception {
        try {
            f.get(1200, TimeUnit.MILLISECONDS);
            throw new AssertionError("the request went through although the budget was spent");
        } catch (TimeoutException expected) {
            // still waiting, as it should
        }
    }
}
