package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxStats;

/**
 * Even pacing on the built jar, behind a per-second gateway in front of the sandbox (knob
 * gateway-limit: 5 a second, bursts of 10, as nginx's limit_req): a batch leaves at the gateway's
 * pace, so hardly a request is refused, whatever the refusal looks like (nginx's HTML page without
 * Retry-After, or JSON with it); every order is placed once. The rate reached is printed, not asserted.
 */
class PacingE2ETest {

    static final int ROWS = 60;

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    SandboxProvider sandbox;
    final JarRun run = product.run();

    /** nginx's own refusal: the hardest, no Retry-After and no JSON (the JSON form is in RateBudgetPacingTest). */
    @Test
    void a_batch_behind_a_five_per_second_gateway_is_hardly_refused() throws Exception {
        String answer = "html";
        sandbox = product.startSandbox(SandboxConfig.defaults().setSeed(29L).setGatewayLimit("5/s burst 10")
                .setGatewayAnswer(answer).setLatency(DurationRange.of(Duration.ofMillis(20), Duration.ofMillis(120))));
        run.provider(sandbox.baseUrl());
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= ROWS; i++) {
            csv.append("GW-").append(i).append(",FF100,").append(40_000_000 + i).append('\n');
        }
        run.drop("paced.csv", csv.toString());

        assertThat(run.runOnce(Duration.ofMinutes(3))).as(run.output()).isZero();

        List<LedgerEntry> ledger = sandbox.ledger();
        SandboxStats stats = sandbox.stats();
        long creates = stats.requestsPerOperation().get("create-order");
        List<java.time.Instant> arrivals = ledger.stream().map(LedgerEntry::createdAt).sorted(Comparator.naturalOrder()).toList();
        double seconds = Duration.between(arrivals.get(0), arrivals.get(arrivals.size() - 1)).toMillis() / 1000.0;
        System.out.printf("gateway 5/s burst 10, %s refusals: %d orders in %.1f s = %.2f a second; %d of %d requests refused"
                + " by the gateway (%.1f%%), %d create-orders sent%n", answer, ledger.size(), seconds,
                (ledger.size() - 1) / seconds, stats.gatewayRefused(), stats.totalRequests(),
                100.0 * stats.gatewayRefused() / stats.totalRequests(), creates);
        assertThat(ledger).hasSize(ROWS);
        assertThat(ledger.stream().map(LedgerEntry::refId).distinct()).hasSize(ROWS);
        assertThat(stats.gatewayRefused()).as("requests the gateway refused (goal: at most 2%)")
                .isLessThanOrEqualTo(Math.round(0.02 * stats.totalRequests()));
        assertThat(stats.rateLimited()).isZero();
        LedgerCheck.assertConsistent(sandbox, List.of(Report.read(run.reports, "paced", ',')));
    }
}
