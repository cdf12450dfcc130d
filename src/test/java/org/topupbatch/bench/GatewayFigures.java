package org.topupbatch.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxStats;

/**
 * Rate use behind a per-second gateway (sandbox knob gateway-limit 5/s burst 10, as nginx's
 * limit_req): {@code -Dbench.orders} instant orders (1,200) at latency {@code -Dbench.latency}, once
 * with nginx's HTML 429 page (no Retry-After) and once with JSON and {@code Retry-After: 1}. Prints
 * the orders a second against the gateway's 5 and the share of requests it refused.
 */
final class GatewayFigures {

    private GatewayFigures() {
    }

    static void run() throws Exception {
        for (String answer : List.of("html", "json")) {
            System.out.printf(Locale.ROOT, "%n== behind a 5/s burst 10 gateway, %s refusals: %d instant orders, latency %s ==%n",
                    answer, OrderFigures.ORDERS, OrderFigures.LATENCY);
            try (SandboxProvider sandbox = SandboxProvider.start(OrderFigures.sandboxSettings()
                    .setGatewayLimit("5/s burst 10").setGatewayAnswer(answer), "127.0.0.1", 0)) {
                OrderFigures.JarProcess jar = OrderFigures.JarProcess.once(sandbox, false);
                jar.drop("gateway.csv", OrderFigures.instantRows("GW-", OrderFigures.ORDERS));
                jar.start();
                jar.awaitExit(Duration.ofMinutes(30));
                List<LedgerEntry> ledger = sandbox.ledger();
                SandboxStats stats = sandbox.stats();
                List<Instant> arrivals = ledger.stream().map(LedgerEntry::createdAt).sorted(Comparator.naturalOrder()).toList();
                double seconds = arrivals.size() < 2 ? Double.NaN
                        : Duration.between(arrivals.get(0), arrivals.get(arrivals.size() - 1)).toMillis() / 1000.0;
                double perSecond = (ledger.size() - 1) / seconds;
                System.out.printf(Locale.ROOT, "  product    %d orders in %.1f s: %.2f a second = %.3f of the gateway's 5;"
                                + " %d of %d requests refused by the gateway (%.2f%%); %d answers 429 of the account's limit"
                                + "   load %s%n", ledger.size(), seconds, perSecond, perSecond / 5, stats.gatewayRefused(),
                        stats.totalRequests(), 100.0 * stats.gatewayRefused() / stats.totalRequests(), stats.rateLimited(),
                        Machine.load());
                jar.delete();
            }
        }
    }
}
