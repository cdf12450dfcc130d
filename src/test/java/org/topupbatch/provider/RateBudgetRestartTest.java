package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.provider.ProviderCall;
import org.topupbatch.provider.StubProvider.Canned;
import org.topupbatch.testing.MutableClock;

/**
 * The rate budget across a restart, on a real journal database (subclasses: H2 file,
 * embedded PostgreSQL): the window is rebuilt from journaled reservations and answers, and the
 * account's limits are remembered. Waits are measured on a clock the test moves.
 */
abstract class RateBudgetRestartTest {

    static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    static final Duration LONGEST_CALL = Duration.ofSeconds(40);
    static final AccountLimits BASIC = new AccountLimits(Tier.BASIC.requestsPerMinute(), 10_000, 0, T0);

    final MutableClock clock = new MutableClock(T0);
    final ClockWaiter waiter = new ClockWaiter(clock);
    JdbcJournal journal;

    /** Opens the test's journal; called again after close it opens the same database. */
    protected abstract JdbcJournal open(Clock clock);

    @BeforeEach
    void openJournal() {
        journal = open(clock);
    }

    @AfterEach
    void closeJournal() {
        journal.close();
    }

    /** The process died; a new one opens the journal and restores its budget. */
    private RateBudget restart() {
        journal.close();
        journal = open(clock);
        return RateBudget.restore(clock, journal.callLog(), LONGEST_CALL, waiter, BASIC).withoutPacing();
    }

    @Test
    void after_a_crash_with_requests_in_flight_the_next_call_waits_exactly_as_long_as_the_window_requires()
            throws Exception {
        RateBudget before = RateBudget.restore(clock, journal.callLog(), LONGEST_CALL, waiter, BASIC).withoutPacing();
        before.setLimits(5, 1000, 0);
        for (int i = 0; i < 3; i++) {
            RequestGate.Ticket ticket = before.enter("create-order");
            clock.advance(Duration.ofSeconds(1));
            ticket.completed(200); // answered at 1, 2, 3 s
        }
        before.enter("create-order"); // at 3 s and 3.5 s: sent, never answered (the process dies)
        clock.advance(Duration.ofMillis(500));
        before.enter("create-order");
        clock.set(T0.plusSeconds(10));

        RateBudget after = restart();
        assertThat(after.limits().perMinute()).isEqualTo(5);
        assertThat(after.inWindow()).isEqualTo(5);
        after.enter("profile").completed(200);
        // The answer of 1 s leaves the window 60 s + 1 s later: not a moment sooner, nor later.
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(62));
        after.enter("profile").completed(200);
        after.enter("profile").completed(200);
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(64));
        // The reservation of 3 s counts as answered at the latest (3 s + 40 s), so until 104 s.
        after.enter("profile").completed(200);
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(104));
    }

    @Test
    void the_accounts_limits_survive_a_restart_so_a_gold_account_is_not_judged_by_the_basic_tier()
            throws Exception {
        RateBudget before = RateBudget.restore(clock, journal.callLog(), LONGEST_CALL, waiter, BASIC).withoutPacing();
        assertThat(before.limits().perMinute()).isEqualTo(60); // first start: nothing remembered
        before.setLimits(Tier.GOLD.requestsPerMinute(), 50_000, 1_000);
        for (int i = 0; i < 100; i++) {
            before.enter("create-order").completed(200);
        }

        RateBudget after = restart();
        assertThat(after.limits().perMinute()).isEqualTo(300);
        assertThat(after.limits().perDay()).isEqualTo(50_000);
        assertThat(after.limits().usedToday()).isEqualTo(1_100);
        for (int i = 0; i < 199; i++) {
            after.enter("create-order").completed(200);
        }
        assertThat(clock.instant()).isEqualTo(T0); // 299 in the window: not one wait
    }

    @Test
    void a_call_is_journaled_before_its_request_reaches_the_provider() throws Exception {
        List<List<ProviderCall>> seenOnArrival = new ArrayList<>();
        RateBudget budget = RateBudget.restore(clock, journal.callLog(), LONGEST_CALL, waiter, BASIC).withoutPacing();
        CamelContext camel = new DefaultCamelContext();
        camel.start();
        try (StubProvider provider = new StubProvider()) {
            provider.answer(ProviderClient.CREATE_ORDER, Canned.json(500, "{\"success\":false,\"message\":\"busy\"}"));
            provider.onArrival = () -> seenOnArrival.add(journal.callLog().callsSince(Instant.EPOCH));
            ProviderEndpoint endpoint = new ProviderEndpoint(provider.baseUrl(), new Signer("RSL-7F3A9C21", "s3cr3t-Kx9pQ2"),
                    Duration.ofSeconds(2), Duration.ofSeconds(5));
            try (HttpProviderClient client = HttpProviderClient.standalone(endpoint, budget)) {
                client.createOrder(new OrderRequest("R-1", "ML86", "12345678", ""));
            } catch (ProviderException expected) {
                assertThat(expected.httpStatus()).isEqualTo(500);
            }
        } finally {
            camel.stop();
        }
        assertThat(seenOnArrival).singleElement().satisfies(calls -> assertThat(calls).singleElement()
                .matches(call -> call.operation().equals("create-order") && !call.completed()));
        assertThat(journal.callLog().callsSince(Instant.EPOCH)).singleElement()
                .matches(call -> call.completed() && call.httpStatus() == 500);
    }

    /**
     * The figure of the restart: a gold account whose process died amid calls (16 in flight), how
     * long until the next call is allowed as the budget computes it from the journal, against what
     * the provider's window requires (it counts a request on arrival, taken here as halfway through
     * its 0.4-1.2 s latency). Prints both; the budget is never earlier than required.
     */
    @Test
    void restart_dead_time_against_what_the_providers_window_requires() throws Exception {
        printRestartFigure("200 calls in the last 20 s", 200, Duration.ofMillis(100));
        printRestartFigure("a full window, 300 calls in the last 60 s", 300, Duration.ofMillis(200));
    }

    private void printRestartFigure(String scenario, int calls, Duration gap) throws Exception {
        int inFlight = 16;
        journal.callLog().pruneCalls(T0.plus(Duration.ofDays(365)));
        journal.callLog().rememberLimits(new AccountLimits(Tier.GOLD.requestsPerMinute(), 50_000, 0, T0));
        Random random = new Random(42);
        Instant lastSent = T0.plusSeconds(120);
        List<Instant> arrivals = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            Instant sent = lastSent.minus(gap.multipliedBy(calls - 1 - i));
            Duration latency = Duration.ofMillis(400 + random.nextInt(801));
            arrivals.add(sent.plus(latency.dividedBy(2)));
            long id = journal.callLog().reserveCall(sent, "create-order");
            if (i < calls - inFlight) {
                journal.callLog().completeCall(id, sent.plus(latency), 200);
            }
        }
        Instant restartedAt = lastSent.plusMillis(500);
        clock.set(restartedAt);

        RateBudget after = restart();
        after.enter("profile").completed(200);
        Duration budgetWait = Duration.between(restartedAt, clock.instant());
        Duration required = requiredWait(arrivals, restartedAt, Tier.GOLD.requestsPerMinute());
        System.out.printf("Restart of a gold account after %s (%d in flight): the budget allows the next call"
                        + " after %.3f s; the provider's window requires %.3f s%n",
                scenario, inFlight, budgetWait.toMillis() / 1000.0, required.toMillis() / 1000.0);
        assertThat(budgetWait).isGreaterThanOrEqualTo(required);
    }

    /** The earliest moment from {@code from} at which one more arrival keeps every 60 s window within the limit. */
    private static Duration requiredWait(List<Instant> arrivals, Instant from, int limit) {
        Instant t = from;
        while (true) {
            Instant at = t;
            long inWindow = arrivals.stream().filter(a -> a.isAfter(at.minusSeconds(60)) && !a.isAfter(at)).count();
            if (inWindow < limit) {
                return Duration.between(from, t);
            }
            t = t.plusMillis(1);
        }
    }
}
