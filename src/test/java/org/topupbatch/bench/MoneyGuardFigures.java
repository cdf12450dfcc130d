package org.topupbatch.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * The money guards at the moment of sending, measured on the built jar against the sandbox at the
 * provider's real rate and latency ({@code -Dbench.latency}), with the product's default settings
 * (16 submit workers, 10 % price tolerance): a 30 % price rise in the middle of a batch, and a product
 * that goes out of stock in the middle of a batch and comes back. Beside each, what a client that
 * checks prices and stock at intake only would have spent.
 */
final class MoneyGuardFigures {

    static final int ORDERS = Integer.getInteger("bench.guard.orders", 600);
    static final int CHANGE_AFTER = Integer.getInteger("bench.guard.after", 100);
    /** Gold prices of the sandbox's catalog (basic 14,000 and 19,500, less 5 %). */
    static final long FF100 = 13_300;
    static final long ML86 = 18_525;

    private MoneyGuardFigures() {
    }

    /** {@code rows} rows, FF100 and ML86 by turns, each with a max_price 15 % above today's price. */
    static String rows(String prefix, int rows) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone,max_price\n");
        for (int i = 1; i <= rows; i++) {
            csv.append(prefix).append(i).append(i % 2 == 1
                    ? ",FF100," + (100_000_000 + i) + ",," + FF100 * 115 / 100
                    : ",ML86," + (100_000_000 + i) + ",2345," + ML86 * 115 / 100).append('\n');
        }
        return csv.toString();
    }

    static void run() throws Exception {
        priceRise();
        productDown();
    }

    static void priceRise() throws Exception {
        System.out.printf(Locale.ROOT, "%n== price rise: +30%% after %d of %d orders (max_price +15%%), latency %s ==%n",
                CHANGE_AFTER, ORDERS, OrderFigures.LATENCY);
        try (SandboxProvider sandbox = SandboxProvider.start(OrderFigures.sandboxSettings(), "127.0.0.1", 0)) {
            OrderFigures.JarProcess jar = OrderFigures.JarProcess.once(sandbox, false);
            jar.drop("rise.csv", rows("RISE-", ORDERS));
            jar.start();
            Poll.atMost(Duration.ofMinutes(10), () -> sandbox.ledger().size(), n -> n >= CHANGE_AFTER || !jar.alive());
            sandbox.config().set("price-change", "+30%");
            int before = sandbox.ledger().size();
            jar.awaitExit(Duration.ofMinutes(30));
            List<LedgerEntry> ledger = sandbox.ledger();
            long above = ledger.stream().filter(e -> e.price() > max(e)).count();
            System.out.printf(Locale.ROOT, "  product    %d orders before the rise; %d orders after it, %d of them charged"
                            + " above their max_price; %d rows rejected unsent   load %s%n", before, ledger.size() - before,
                    above, ORDERS - ledger.size(), Machine.load());
            System.out.printf(Locale.ROOT, "  naive      checks max_price at intake only: every one of the %d rows after the"
                    + " rise charged above its max_price%n", ORDERS - before);
            jar.delete();
        }
    }

    private static long max(LedgerEntry e) {
        return (e.productSku().equals("FF100") ? FF100 : ML86) * 115 / 100;
    }

    static void productDown() throws Exception {
        System.out.printf(Locale.ROOT, "%n== product down: ML86 out of stock after %d of %d orders, back 60 s later,"
                + " latency %s ==%n", CHANGE_AFTER, ORDERS, OrderFigures.LATENCY);
        try (SandboxProvider sandbox = SandboxProvider.start(OrderFigures.sandboxSettings(), "127.0.0.1", 0)) {
            OrderFigures.JarProcess jar = OrderFigures.JarProcess.once(sandbox, false);
            jar.env.put("TOPUP_OUTAGE_RECHECK", "10s");
            jar.drop("down.csv", rows("DOWN-", ORDERS));
            jar.start();
            Poll.atMost(Duration.ofMinutes(10), () -> sandbox.ledger().size(), n -> n >= CHANGE_AFTER || !jar.alive());
            sandbox.config().set("unavailable", "ML86");
            Thread.sleep(60_000);
            sandbox.config().set("unavailable", "");
            jar.awaitExit(Duration.ofMinutes(30));
            // no other refusal in this run (no injected errors, every customer valid): every create-order
            // without a ledger entry was refused as unavailable; the sandbox checks stock after its latency,
            // so a request on the wire when the product went down is refused too
            long refused = creates(sandbox) - sandbox.ledger().size();
            long ml86Ordered = sandbox.ledger().stream().filter(e -> e.productSku().equals("ML86")).count();
            System.out.printf(Locale.ROOT, "  product    %d create-orders refused on ML86 (down 60 s); %d of its %d rows"
                            + " ordered in the end (the refused ones are reported failed); calls %s   load %s%n", refused,
                    ml86Ordered, ORDERS / 2, sandbox.stats().requestsPerOperation(), Machine.load());
            System.out.printf(Locale.ROOT, "  naive      sends every ML86 row it reaches while it is down: at %d requests a"
                    + " minute, half of them ML86, about %d refused create-orders in those 60 s, each row reported failed%n",
                    OrderFigures.TIER.limitPerMinute(), OrderFigures.TIER.limitPerMinute() / 2);
            jar.delete();
        }
    }

    private static long creates(SandboxProvider sandbox) {
        return sandbox.stats().requestsPerOperation().getOrDefault("create-order", 0L);
    }
}
