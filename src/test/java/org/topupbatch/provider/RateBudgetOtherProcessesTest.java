package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.MutableClock;

/**
 * The budget beside other processes on one journal: together they never exceed the limit; the
 * journal is read without the budget's lock; the limits another process learned later are taken
 * from the same reading (no poll of its own).
 */
class RateBudgetOtherProcessesTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    private static final Duration LONGEST_CALL = Duration.ofSeconds(40);
    private static final int PER_MINUTE = 20;

    private final MutableClock clock = new MutableClock(T0);
    private final ClockWaiter waiter = new ClockWaiter(clock);
    private final InMemoryCallLog log = new InMemoryCallLog();

    @Test
    void two_processes_on_one_journal_never_count_more_than_the_limit_in_any_window() throws Exception {
        RateBudget service = new RateBudget(clock, log, LONGEST_CALL, waiter, PER_MINUTE, 100_000);
        RateBudget command = new RateBudget(clock, log, LONGEST_CALL, waiter, PER_MINUTE, 100_000);
        Random random = new Random(33);
        List<RequestGate.Ticket> onTheWire = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            RateBudget next = random.nextBoolean() ? service : command;
            onTheWire.add(next.enter(random.nextInt(3) == 0 ? "order-history" : "create-order"));
            clock.advance(Duration.ofMillis(random.nextInt(400)));
            while (onTheWire.size() > random.nextInt(3)) { // answers come back in a while, in order
                onTheWire.remove(0).completed(200);
            }
        }
        onTheWire.forEach(t -> t.completed(200));
        List<ProviderCall> calls = log.calls();
        assertThat(Duration.between(T0, clock.instant())).as("the run lasted several windows").isGreaterThan(Duration.ofMinutes(10));
        for (ProviderCall c : calls) {
            long counted = calls.stream().filter(d -> !d.reservedAt().isAfter(c.reservedAt())
                            && d.answeredAt().plus(RollingWindow.WINDOW).plus(RollingWindow.MARGIN).isAfter(c.reservedAt()))
                    .count();
            assertThat(counted).as("requests counting in the window when call %d left at %s", c.id(), c.reservedAt())
                    .isLessThanOrEqualTo(PER_MINUTE);
        }
    }

    @Test
    void limits_another_process_learned_later_are_taken_from_the_reading_of_its_calls() throws Exception {
        RateBudget follower = new RateBudget(clock, log, LONGEST_CALL, waiter, 5, 1000).withoutPacing();
        RateBudget leader = new RateBudget(clock, log, LONGEST_CALL, waiter, 5, 1000).withoutPacing();
        clock.advance(Duration.ofSeconds(1));
        leader.setLimits(300, 50_000, 7);
        follower.enter("check-balance").completed(200);
        assertThat(follower.limits().perMinute()).isEqualTo(300);
        assertThat(follower.limits().perDay()).isEqualTo(50_000);

        clock.advance(Duration.ofSeconds(1));
        follower.setLimits(60, 10_000, 0); // learned by the follower itself, later: it keeps them
        clock.advance(Duration.ofSeconds(1));
        follower.enter("check-balance").completed(200);
        assertThat(follower.limits().perMinute()).isEqualTo(60);
    }

    @Test
    void a_journal_read_that_does_not_come_back_holds_up_neither_the_readings_of_the_budget_nor_a_step_down()
            throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch linkBack = new CountDownLatch(1);
        log.beforeRead = () -> { // a link that went quiet: the read hangs until the test lets it come back
            reading.countDown();
            try {
                if (!linkBack.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let the read come back");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        RateBudget budget = new RateBudget(Clock.systemUTC(), log, LONGEST_CALL, RateBudget.Waiter.REAL, 60, 10_000);
        CompletableFuture<RequestGate.Ticket> first = CompletableFuture.supplyAsync(() -> enter(budget, "check-balance"));
        try {
            assertThat(reading.await(10, TimeUnit.SECONDS)).as("the first caller reads the journal").isTrue();
            // the dashboard, the metrics and the progress log read the budget meanwhile
            AccountLimits limits = CompletableFuture.supplyAsync(budget::limits).get(5, TimeUnit.SECONDS);
            assertThat(limits.perMinute()).isEqualTo(60);
            assertThat(CompletableFuture.supplyAsync(budget::inWindow).get(5, TimeUnit.SECONDS)).isZero();
            // a second caller waits for that reading, never judging by none; a step-down still stops it
            CompletableFuture<RequestGate.Ticket> second = CompletableFuture.supplyAsync(() -> enter(budget, "create-order"));
            budget.refuseWaiting();
            ExecutionException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                    () -> second.get(5, TimeUnit.SECONDS), ExecutionException.class);
            assertThat(refused).as("the second caller gave up at the step-down").isNotNull();
            assertThat(refused.getCause()).hasCauseInstanceOf(InterruptedException.class);
        } finally {
            linkBack.countDown();
        }
        ExecutionException firstRefused = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> first.get(5, TimeUnit.SECONDS), ExecutionException.class);
        assertThat(firstRefused).as("no slot after the step-down, once the read came back").isNotNull();
        assertThat(log.calls()).isEmpty();
    }

    private static RequestGate.Ticket enter(RateBudget budget, String operation) {
        try {
            return budget.enter(operation);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
