package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxTier;
import org.topupbatch.testing.FastClock;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.RecordingProxy;

/**
 * submit.yaml: every accepted row becomes exactly one order at the provider, within its rate limit.
 * The account is on the basic tier (60 requests a minute) and the batch holds more than two minutes'
 * worth of orders, so a budget that let through more than the limit would be seen doing so. The
 * product and the sandbox share a clock running {@value #SPEED} times faster than the real one: the
 * minutes pass in seconds, for both sides alike.
 */
class SubmitRouteTest extends RouteTestSupport {

    static final int ROWS = 130;
    static final long SPEED = 30;
    static final SandboxTier TIER = SandboxTier.BASIC;
    static final Duration WINDOW = Duration.ofSeconds(60);

    private final FastClock clock = new FastClock(Instant.parse("2026-11-21T10:00:00Z"), SPEED);
    private RecordingProxy provider;

    @Override
    Clock clock() {
        return clock;
    }

    /** The product talks to the sandbox through a proxy that notes when each request arrives. */
    @Override
    String providerBaseUrl() {
        provider = new RecordingProxy(sandbox.baseUrl(), clock);
        return provider.baseUrl();
    }

    @AfterEach
    void closeProxy() {
        if (provider != null) {
            provider.close();
        }
    }

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "submit-order", "mark-sending");
    }

    /**
     * Slow answers: a round of rows outlasts the timer's period (the waits for the budget do too). Not
     * too slow: 16 workers at 100-300 ms (3-9 s on the fast clock) could send well over 60 a minute,
     * so the budget, not the latency, is what holds the rate.
     */
    @Override
    org.topupbatch.sandbox.SandboxConfig sandboxConfig() {
        return org.topupbatch.sandbox.SandboxConfig.defaults().setTier(TIER).setLatency(
                org.topupbatch.sandbox.DurationRange.of(java.time.Duration.ofMillis(100), java.time.Duration.ofMillis(300)));
    }

    @Test
    void accepted_rows_become_orders_once_each_without_a_429() throws Exception {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        IntStream.rangeClosed(1, ROWS).forEach(i -> csv.append(String.format("SB-%04d,ML86,1234567%02d,2345%n", i, i)));
        csv.append("SB-BAD,NOPE1,123456,\n");
        drop("submit.csv", csv.toString());

        // at most 60 in any minute: at least two whole windows of waiting, which take 2 x 61 s / SPEED in real time
        List<RowRecord> rows = Poll.until("every accepted row has an outcome", WAIT.multipliedBy(2), () -> rows("submit.csv"),
                r -> r.size() == ROWS + 1 && r.stream().noneMatch(x -> x.state() == RowState.ACCEPTED || x.state() == RowState.SENDING));

        List<LedgerEntry> ledger = sandbox.ledger();
        assertThat(ledger).extracting(LedgerEntry::refId)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, ROWS).mapToObj(i -> String.format("SB-%04d", i)).toList());
        Map<String, LedgerEntry> byRef = ledger.stream().collect(Collectors.toMap(LedgerEntry::refId, Function.identity()));
        for (RowRecord row : rows) {
            if (row.refId().equals("SB-BAD")) {
                assertThat(row.state()).isEqualTo(RowState.REJECTED);
                continue;
            }
            LedgerEntry order = byRef.get(row.refId());
            assertThat(order.productSku()).isEqualTo("ML86");
            assertThat(order.customerNo()).isEqualTo(row.customerNo());
            assertThat(order.customerNoZone()).isEqualTo("2345");
            // ML86 settles at creation: the journal holds the provider's own answer
            assertThat(row.state()).as(row.refId()).isEqualTo(RowState.SUCCESS);
            assertThat(row.serialNumber()).isEqualTo(order.serialNumber()).isNotBlank();
            assertThat(row.price()).isEqualTo(order.price());
        }
        // what the provider was sent, refused requests included: never more create-orders in 60 s than the tier allows
        List<Instant> creates = provider.arrivals().stream().filter(a -> a.path().endsWith("/create-order"))
                .map(RecordingProxy.Arrival::at).sorted().toList();
        int busiest = busiestWindow(creates);
        System.out.printf("%d create-order requests over %s (provider's clock), busiest 60 s window %d, limit %d%n",
                creates.size(), Duration.between(creates.get(0), creates.get(creates.size() - 1)), busiest, TIER.limitPerMinute());
        assertThat(busiest).as("create-order requests in the busiest rolling 60 s window").isLessThanOrEqualTo(TIER.limitPerMinute());
        assertThat(sandbox.stats().rateLimited()).as("429 answers").isZero();
        assertThat(creates).as("create-order requests the provider received").hasSize(ROWS);
        assertThat(ROWS).as("more orders than two windows hold, or the limit is never tested").isGreaterThan(2 * TIER.limitPerMinute());
        assertThat(Duration.between(creates.get(0), creates.get(creates.size() - 1))).as("so the orders spread over more than two minutes")
                .isGreaterThan(WINDOW.multipliedBy(2));
        // every create-order reservation of the rate budget was a request: no slot spent on a row
        // that was taken twice while it waited
        assertThat(journal().callLog().callsSince(java.time.Instant.EPOCH))
                .filteredOn(call -> call.operation().equals("create-order")).hasSize(ROWS);
        assertThat(batch("submit.csv").orElseThrow().balanceBefore()).isNotNull();
    }

    /** The most requests within any 60 s (t - 60 s, t], as the sandbox counts its window. */
    static int busiestWindow(List<Instant> sorted) {
        int busiest = 0;
        int first = 0;
        for (int last = 0; last < sorted.size(); last++) {
            while (!sorted.get(first).isAfter(sorted.get(last).minus(WINDOW))) {
                first++;
            }
            busiest = Math.max(busiest, last - first + 1);
        }
        return busiest;
    }
}
