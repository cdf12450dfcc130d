package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.MutableClock;

/**
 * Even pacing on a clock the test moves: requests leave at most limit/60 a second with bursts of at
 * most limit/60, so in any span of t seconds at most (limit/60)·t + limit/30 leave; the pace goes on
 * across a restart; a 429 pauses once per episode and gives its slot back.
 */
class RateBudgetPacingTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private static final Duration LONGEST_CALL = Duration.ofSeconds(40);

    private final MutableClock clock = new MutableClock(T0);
    private final ClockWaiter waiter = new ClockWaiter(clock);
    private final InMemoryCallLog log = new InMemoryCallLog();

    private RateBudget gold() {
        return new RateBudget(clock, log, LONGEST_CALL, waiter, Tier.GOLD.requestsPerMinute(), 200_000);
    }

    @Test
    void a_gold_account_sends_five_at_once_then_one_every_200_ms() throws Exception {
        RateBudget budget = gold();
        List<Instant> left = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            budget.enter("create-order").completed(200);
            left.add(clock.instant());
        }
        assertThat(left.subList(0, 5)).allMatch(T0::equals);
        assertThat(left.get(5)).isEqualTo(T0.plusMillis(200));
        assertThat(left.get(24)).isEqualTo(T0.plusMillis(200L * 20));
        // the contract's rule, checked over every span the run contains
        for (int i = 0; i < left.size(); i++) {
            for (int j = i; j < left.size(); j++) {
                double seconds = Duration.between(left.get(i), left.get(j)).toMillis() / 1000.0;
                assertThat(j - i + 1).as("requests %d..%d within %.1f s", i, j, seconds)
                        .isLessThanOrEqualTo((int) Math.floor(5 * seconds + 10));
            }
        }
    }

    @Test
    void the_pace_goes_on_after_a_restart() throws Exception {
        RateBudget before = gold();
        for (int i = 0; i < 5; i++) {
            before.enter("create-order").completed(200);
        }
        log.rememberLimits(new AccountLimits(300, 200_000, 5, T0));
        clock.advance(Duration.ofMillis(100));
        RateBudget after = RateBudget.restore(clock, log, LONGEST_CALL, waiter, new AccountLimits(60, 10_000, 0, T0));
        after.enter("create-order").completed(200);
        assertThat(clock.instant()).as("the burst was spent before the restart").isEqualTo(T0.plusMillis(200));
    }

    @Test
    void a_burst_of_429s_pauses_once_and_gives_its_slots_back() throws Exception {
        RateBudget budget = gold();
        List<RequestGate.Ticket> onTheWire = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            onTheWire.add(budget.enter("create-order"));
        }
        // all five answered 429 in the same moment by a per-second gateway, without Retry-After
        for (RequestGate.Ticket t : onTheWire) {
            t.completed(429);
            budget.backOff(null);
        }
        assertThat(budget.inWindow()).as("refused requests were not taken").isZero();
        assertThat(budget.limits().usedToday()).isZero();
        RequestGate.Ticket again = budget.enter("create-order");
        assertThat(clock.instant()).as("one pause of 2 s, not five doublings").isBetween(T0.plusSeconds(2), T0.plusMillis(2100));
        // a 429 to a request sent after the pause: the pause was not enough, the next one doubles
        again.completed(429);
        budget.backOff(null);
        Instant pausedAt = clock.instant();
        budget.enter("create-order").completed(200);
        assertThat(Duration.between(pausedAt, clock.instant()).toMillis()).isBetween(4000L, 4300L);
        // an answer again: back to the full pace, and the next episode starts from 2 s
        RequestGate.Ticket fresh = budget.enter("create-order");
        fresh.completed(429);
        budget.backOff(null);
        Instant third429 = clock.instant();
        budget.enter("create-order").completed(200);
        assertThat(Duration.between(third429, clock.instant()).toMillis()).isBetween(2000L, 2300L);
        // and Retry-After, when given, is what the pause lasts
        RequestGate.Ticket third = budget.enter("create-order");
        third.completed(429);
        budget.backOff(7L);
        Instant asked = clock.instant();
        budget.enter("create-order").completed(200);
        assertThat(Duration.between(asked, clock.instant()).toMillis()).isBetween(7000L, 7300L);
    }

    @Test
    void a_look_up_waiting_beside_orders_takes_the_next_slot() throws Exception {
        // basic: one request a second; real time, three callers
        RateBudget budget = new RateBudget(java.time.Clock.systemUTC(), log, LONGEST_CALL, RateBudget.Waiter.REAL, 60, 10_000);
        budget.enter("create-order").completed(200); // the bucket is empty now for a second
        java.util.concurrent.ConcurrentLinkedQueue<String> order = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        java.util.concurrent.CompletableFuture<Thread> ordering = new java.util.concurrent.CompletableFuture<>();
        try {
            java.util.concurrent.Future<?> orders = pool.submit(() -> {
                ordering.complete(Thread.currentThread());
                for (int i = 0; i < 2; i++) {
                    budget.enter("create-order").completed(200);
                    order.add("create-order");
                }
                return null;
            });
            // the orders wait first: their thread is parked in the budget before the look-up comes
            Thread orderThread = ordering.get(10, java.util.concurrent.TimeUnit.SECONDS);
            org.topupbatch.testing.Poll.until("the orders wait for a slot", Duration.ofSeconds(10),
                    () -> orderThread.getState() == Thread.State.TIMED_WAITING || orderThread.getState() == Thread.State.WAITING);
            pool.submit(() -> {
                budget.enter("check-balance").completed(200);
                order.add("check-balance");
                return null;
            }).get(10, java.util.concurrent.TimeUnit.SECONDS);
            orders.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(order).containsExactly("check-balance", "create-order", "create-order");
    }
}
