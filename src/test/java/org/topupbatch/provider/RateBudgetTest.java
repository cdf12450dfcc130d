package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.ProviderCall;
import org.topupbatch.testing.MutableClock;

/**
 * The budget's rules on a clock the test moves: every wait is measured exactly, nothing sleeps.
 * The restart rules on the real journal are in {@link RateBudgetRestartTest}.
 */
class RateBudgetTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private static final Duration LONGEST_CALL = Duration.ofSeconds(40);
    private static final AccountLimits BASIC = new AccountLimits(60, 10_000, 0, T0);

    private final MutableClock clock = new MutableClock(T0);
    private final ClockWaiter waiter = new ClockWaiter(clock);
    private final InMemoryCallLog log = new InMemoryCallLog();
    private final RateBudget budget = new RateBudget(clock, log, LONGEST_CALL, waiter, 5, 1000).withoutPacing();

    /**
     * refuseWaiting no longer waits for the budget's monitor (a step-down must not hang on a journal
     * read over a cut link): a refusal that comes while a worker reads the other nodes' calls must
     * still keep that worker from taking a slot once the read returns.
     */
    @Test
    void a_refusal_during_the_read_of_other_calls_gives_no_slot() {
        RateBudget[] stepping = new RateBudget[1];
        log.beforeRead = () -> stepping[0].refuseWaiting(); // the node steps down while this read is under way
        stepping[0] = new RateBudget(clock, log, LONGEST_CALL, waiter, 5, 1000).withoutPacing();
        InterruptedException refused = catchThrowableOfType(InterruptedException.class,
                () -> stepping[0].enter("create-order"));
        assertThat(refused).as("a slot taken after the step-down").isNotNull();
        assertThat(log.calls()).isEmpty();
    }

    @Test
    void lets_the_limit_through_then_waits_for_the_window_to_roll() throws Exception {
        for (int i = 0; i < 5; i++) {
            budget.enter("profile").completed(200);
            clock.advance(Duration.ofSeconds(1));
        }
        budget.enter("profile").completed(200);
        // The first request ended at t=0: it leaves the window 60 s plus the margin later.
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(61));
        assertThat(log.calls()).hasSize(6).allMatch(c -> c.httpStatus() == 200);
    }

    @Test
    void another_process_calls_on_the_same_journal_count_in_the_window_too() throws Exception {
        // a command beside the service (reconcile, plan): its own budget, the same journal
        RateBudget command = new RateBudget(clock, log, LONGEST_CALL, waiter, 5, 1000).withoutPacing();
        command.enter("order-history").completed(200);
        RequestGate.Ticket open = command.enter("order-history"); // still in flight
        budget.enter("create-order").completed(200);
        assertThat(clock.instant()).as("a slot is free").isEqualTo(T0);
        budget.enter("create-order").completed(200);
        // the other process's two calls and this one's first take 3 of the 5 slots; the other 2 are
        // left free while another process calls (what it may send between two looks at the journal):
        // the window is full until the answered calls leave it, 60 s plus the margin after their answers
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(61));
        open.completed(200);
        assertThat(log.calls()).hasSize(4);
    }

    @Test
    void requests_in_flight_count_against_the_window() throws Exception {
        List<RequestGate.Ticket> open = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            open.add(budget.enter("create-order"));
        }
        // While the sixth waits, the first answer arrives (at t = 50 ms, the first look again).
        waiter.then(() -> {
            if (!open.isEmpty()) {
                open.remove(0).completed(200);
            }
        });
        budget.enter("create-order");
        // Ended at 50 ms: it still counts for a whole window after its answer.
        assertThat(clock.instant()).isEqualTo(T0.plusMillis(50).plusSeconds(61));
    }

    @Test
    void the_reservation_is_journaled_before_the_request_and_completed_after_its_answer() throws Exception {
        RequestGate.Ticket ticket = budget.enter("create-order");
        assertThat(log.calls()).containsExactly(new ProviderCall(1, T0, "create-order", null, null));
        clock.advance(Duration.ofMillis(700));
        ticket.completed(0);
        assertThat(log.calls()).containsExactly(new ProviderCall(1, T0, "create-order", T0.plusMillis(700), 0));
    }

    @Test
    void a_call_the_journal_cannot_record_is_not_sent_and_gives_its_slot_back() throws Exception {
        log.failing = true;
        ProviderException e = catchThrowableOfType(() -> budget.enter("create-order"), ProviderException.class);
        assertThat(e.code()).isEqualTo(ProviderException.CONNECTION_FAILED);
        assertThat(e.outcomeUnknown()).isFalse();
        assertThat(e.getMessage()).contains("not sent", "journal");
        assertThat(budget.inWindow()).isZero();
        assertThat(budget.limits().usedToday()).isZero();
    }

    @Test
    void a_restart_counts_answered_calls_and_those_left_open_as_answered_at_the_latest_moment() throws Exception {
        log.rememberLimits(new AccountLimits(5, 1000, 0, T0));
        answered(T0, T0.plusSeconds(1));
        answered(T0.plusSeconds(1), T0.plusSeconds(2));
        answered(T0.plusSeconds(2), T0.plusSeconds(3));
        log.reserveCall(T0.plusSeconds(4), "create-order"); // the process died waiting for these
        log.reserveCall(T0.plusSeconds(5), "create-order");
        clock.set(T0.plusSeconds(10));

        RateBudget restarted = RateBudget.restore(clock, log, LONGEST_CALL, waiter, BASIC).withoutPacing();
        assertThat(restarted.inWindow()).isEqualTo(5);
        restarted.enter("balance").completed(200);
        // The call answered at t=1 s leaves the window first: 61 s later.
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(62));
        restarted.enter("balance").completed(200);
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(63));
        restarted.enter("balance").completed(200);
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(64));
        // The open reservation of t=4 s counts as answered at 4 + 40 s, so it frees at 105 s.
        restarted.enter("balance").completed(200);
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(105));
    }

    @Test
    void old_calls_do_not_count_after_a_restart() {
        answered(T0.minusSeconds(300), T0.minusSeconds(299));
        log.reserveCall(T0.minusSeconds(110), "create-order"); // open, but would have ended at -70 s
        RateBudget restarted = RateBudget.restore(clock, log, LONGEST_CALL, waiter, BASIC).withoutPacing();
        assertThat(restarted.inWindow()).isZero();
    }

    @Test
    void limits_learned_are_remembered_and_a_restart_judges_by_them_at_once() throws Exception {
        budget.setLimits(300, 50_000, 1200);
        assertThat(log.rememberedLimits()).contains(new AccountLimits(300, 50_000, 1200, T0));
        clock.advance(Duration.ofSeconds(5));
        budget.enter("create-order").completed(200);

        RateBudget restarted = RateBudget.restore(clock, log, LONGEST_CALL, waiter, BASIC).withoutPacing();
        assertThat(restarted.limits().perMinute()).isEqualTo(300);
        assertThat(restarted.limits().perDay()).isEqualTo(50_000);
        // what the provider reported, plus the call made since
        assertThat(restarted.limits().usedToday()).isEqualTo(1201);
    }

    @Test
    void the_first_start_judges_by_the_basic_tier_and_counts_todays_journaled_calls() {
        answered(T0.minusSeconds(3600), T0.minusSeconds(3599));
        answered(T0.minusSeconds(36_001), T0.minusSeconds(36_000)); // yesterday (UTC)
        RateBudget first = RateBudget.restore(clock, log, LONGEST_CALL, waiter, BASIC).withoutPacing();
        assertThat(first.limits().perMinute()).isEqualTo(60);
        assertThat(first.limits().usedToday()).isEqualTo(1);
    }

    @Test
    void usage_remembered_on_an_earlier_day_is_not_carried_over() {
        log.rememberLimits(new AccountLimits(300, 50_000, 40_000, T0.minusSeconds(36_001)));
        RateBudget restarted = RateBudget.restore(clock, log, LONGEST_CALL, waiter, BASIC).withoutPacing();
        assertThat(restarted.limits().perMinute()).isEqualTo(300);
        assertThat(restarted.limits().usedToday()).isZero();
    }

    @Test
    void a_429_pauses_every_caller_for_the_time_the_provider_asked() throws Exception {
        budget.backOff(10L);
        budget.enter("balance").completed(200);
        assertThat(clock.instant()).isBetween(T0.plusSeconds(10), T0.plusSeconds(10).plusMillis(1));
    }

    @Test
    void the_daily_limit_holds_until_midnight_utc() throws Exception {
        budget.setLimits(100, 3, 2);
        budget.enter("balance").completed(200);
        budget.enter("balance").completed(200);
        assertThat(clock.instant()).isEqualTo(Instant.parse("2026-11-22T00:00:00Z"));
    }

    private void answered(Instant reservedAt, Instant answeredAt) {
        log.completeCall(log.reserveCall(reservedAt, "create-order"), answeredAt, 200);
    }
}
