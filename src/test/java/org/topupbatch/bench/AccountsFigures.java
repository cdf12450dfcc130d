package org.topupbatch.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * Several accounts (issue 24), measured on the built jar against two sandboxes at the provider's
 * real rate and latency: the rate of one batch over one account and over two accounts of the same
 * limit (the batch's two products each cheaper at another account, routed {@code cheapest}), and a
 * product that goes down at the first account mid-batch: how many rows moved to the second, how
 * many create-orders the first refused, and how many rows were ordered twice (ledgers of both).
 */
final class AccountsFigures {

    static final int ORDERS = Integer.getInteger("bench.accounts.orders", 2_400);
    static final int DOWN_ORDERS = Integer.getInteger("bench.accounts.down.orders", 600);
    static final int DOWN_AFTER = Integer.getInteger("bench.accounts.down.after", 100);

    private AccountsFigures() {
    }

    static void run() throws Exception {
        double one = rate(1);
        double two = rate(2);
        System.out.printf(Locale.ROOT, "  two accounts send %.2f times one account's rate (goal: at least 1.9)%n", two / one);
        productDown();
    }

    /** FF100 and ML86 by turns, every customer once. */
    static String rows(String prefix, int rows) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        for (int i = 1; i <= rows; i++) {
            csv.append(prefix).append(i).append(i % 2 == 1 ? ",FF100," + (100_000_000 + i) + ","
                    : ",ML86," + (100_000_000 + i) + ",2345").append('\n');
        }
        return csv.toString();
    }

    /** The jar ordering from the given sandboxes as accounts a, b, ... with every product routed cheapest. */
    static OrderFigures.JarProcess jar(List<SandboxProvider> sandboxes) throws Exception {
        OrderFigures.JarProcess jar = OrderFigures.JarProcess.once(sandboxes.get(0), false);
        jar.env.remove("TOPUP_BASE_URL");
        jar.env.remove("TOPUP_API_KEY");
        jar.env.remove("TOPUP_API_SECRET");
        List<String> names = new ArrayList<>();
        StringBuilder map = new StringBuilder("product,provider,sku,routing\n");
        for (int i = 0; i < sandboxes.size(); i++) {
            String name = "acct" + (char) ('a' + i);
            names.add(name);
            SandboxProvider s = sandboxes.get(i);
            String key = "TOPUP_PROVIDER_" + name.toUpperCase(Locale.ROOT) + "_";
            jar.env.put(key + "BASE_URL", s.baseUrl());
            jar.env.put(key + "API_KEY", s.config().apiKey());
            jar.env.put(key + "API_SECRET", s.config().apiSecret());
            for (String product : List.of("FF100", "ML86")) {
                map.append(product).append(',').append(name).append(',').append(product).append(",cheapest\n");
            }
        }
        jar.env.put("TOPUP_PROVIDERS", String.join(",", names));
        Path mapFile = jar.home.resolve("product-map.csv");
        Files.writeString(mapFile, map);
        jar.env.put("TOPUP_PRODUCT_MAP", mapFile.toString());
        return jar;
    }

    /** Create-orders per minute of one batch over {@code accounts} accounts of the gold tier. */
    static double rate(int accounts) throws Exception {
        System.out.printf(Locale.ROOT, "%n== %d orders over %d account%s of %d/min, latency %s ==%n", ORDERS, accounts,
                accounts == 1 ? "" : "s", OrderFigures.TIER.limitPerMinute(), OrderFigures.LATENCY);
        List<SandboxProvider> sandboxes = new ArrayList<>();
        try {
            for (int i = 0; i < accounts; i++) {
                // two accounts: FF100 cheaper at the first, ML86 at the second, so cheapest routing splits the batch
                sandboxes.add(SandboxProvider.start(OrderFigures.sandboxSettings()
                        .set("price-change", accounts == 1 ? "" : i == 0 ? "ML86:+10%" : "FF100:+10%"), "127.0.0.1", 0));
            }
            OrderFigures.JarProcess jar = jar(sandboxes);
            jar.drop("rate.csv", rows("RATE-", ORDERS));
            jar.start();
            jar.awaitExit(Duration.ofMinutes(40));
            List<LedgerEntry> all = new ArrayList<>();
            StringBuilder per = new StringBuilder();
            long rateLimited = 0;
            for (int i = 0; i < sandboxes.size(); i++) {
                SandboxProvider s = sandboxes.get(i);
                all.addAll(s.ledger());
                rateLimited += s.stats().rateLimited();
                per.append(String.format(Locale.ROOT, " acct%c %d orders, busiest 60 s window %d requests;", (char) ('a' + i),
                        s.ledger().size(), s.stats().busiestWindow()));
            }
            all.sort(java.util.Comparator.comparing(LedgerEntry::createdAt));
            double seconds = all.size() < 2 ? 0 : Duration.between(all.get(0).createdAt(), all.get(all.size() - 1).createdAt())
                    .toMillis() / 1000.0;
            double perMinute = seconds == 0 ? 0 : (all.size() - 1) * 60 / seconds;
            System.out.printf(Locale.ROOT, "  product    %d orders in %.1f s: %.1f create-orders/min;%s %d answers 429;"
                    + " client CPU %.1f s   load %s%n", all.size(), seconds, perMinute, per, rateLimited, jar.cpuSeconds, Machine.load());
            jar.delete();
            return perMinute;
        } finally {
            for (SandboxProvider s : sandboxes) {
                s.close();
            }
        }
    }

    /** A product down at the first account after {@link #DOWN_AFTER} orders: its rows go to the second. */
    static void productDown() throws Exception {
        System.out.printf(Locale.ROOT, "%n== product down at the first of two accounts after %d of %d orders, latency %s ==%n",
                DOWN_AFTER, DOWN_ORDERS, OrderFigures.LATENCY);
        try (SandboxProvider first = SandboxProvider.start(OrderFigures.sandboxSettings(), "127.0.0.1", 0);
             SandboxProvider second = SandboxProvider.start(OrderFigures.sandboxSettings().set("price-change", "+10%"),
                     "127.0.0.1", 0)) {
            OrderFigures.JarProcess jar = jar(List.of(first, second));
            jar.drop("down.csv", rows("DOWN-", DOWN_ORDERS));
            jar.start();
            Poll.atMost(Duration.ofMinutes(10), () -> first.ledger().size(), n -> n >= DOWN_AFTER || !jar.alive());
            first.config().set("unavailable", "ML86");
            jar.awaitExit(Duration.ofMinutes(30));
            Map<String, Integer> ordersPerRow = new HashMap<>();
            for (LedgerEntry e : first.ledger()) {
                ordersPerRow.merge(e.refId(), 1, Integer::sum);
            }
            long moved = 0;
            for (LedgerEntry e : second.ledger()) {
                String row = e.refId().endsWith("-F2") ? e.refId().substring(0, e.refId().length() - 3) : e.refId();
                moved += e.refId().endsWith("-F2") ? 1 : 0;
                ordersPerRow.merge(row, 1, Integer::sum);
            }
            long twice = ordersPerRow.values().stream().filter(n -> n > 1).count();
            long refused = first.stats().requestsPerOperation().getOrDefault("create-order", 0L) - first.ledger().size();
            System.out.printf(Locale.ROOT, "  product    %d orders at the first account, %d at the second, %d rows moved to the"
                            + " second (ref_id-F2) after ML86 went down; %d create-orders refused at the first; %d of %d rows"
                            + " ordered; rows ordered twice: %d (goal 0)   load %s%n", first.ledger().size(), second.ledger().size(),
                    moved, refused, ordersPerRow.size(), DOWN_ORDERS, twice, Machine.load());
            jar.delete();
        }
    }
}
