package org.topupbatch.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxStats;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.Poll;

/**
 * What reconciling a day of {@code -Dbench.reconcile.orders} orders (10,000) costs beside a running
 * batch: the day's orders are put at the provider (the sandbox's act for another client, with our
 * ref_ids) and in the journal as sent and successful; then the jar runs a batch in watch mode at the
 * account's full rate, and {@code reconcile} (the jar's command, a process of its own) reconciles the
 * day beside it. Prints the requests and time the reconciliation took, its result, and the sandbox's
 * busiest minute and 429s: the rate limit must hold for both together.
 */
final class ReconcileFigures {

    static final int DAY_ORDERS = Integer.getInteger("bench.reconcile.orders", 10_000);

    private ReconcileFigures() {
    }

    static void run() throws Exception {
        System.out.printf(Locale.ROOT, "%n== reconcile a day of %d orders beside a running batch, tier %s ==%n", DAY_ORDERS,
                OrderFigures.TIER);
        try (SandboxProvider sandbox = SandboxProvider.start(OrderFigures.sandboxSettings(), "127.0.0.1", 0)) {
            OrderFigures.JarProcess jar = OrderFigures.JarProcess.once(sandbox, false);
            jar.env.put("TOPUP_MODE", "watch");
            Path data = jar.home.resolve("data");
            long setUp = System.nanoTime();
            try (JdbcJournal journal = JdbcJournal.open(data, "", null, null)) {
                try (BatchWriter writer = journal.intake().openBatch("day.csv", ',', List.of(), "archive/day.csv")) {
                    for (int i = 0; i < DAY_ORDERS; i++) {
                        writer.add(new NewRow(i, i + 2L, "DAY-" + i, "FF100", Integer.toString(50_000_000 + i), null, null,
                                List.of(), RowState.ACCEPTED, null, null));
                    }
                    writer.commit();
                }
                for (int i = 0; i < DAY_ORDERS; i++) {
                    LedgerEntry order = sandbox.foreignOrder("DAY-" + i, "FF100", Integer.toString(50_000_000 + i), null);
                    RowRecord row = journal.tracking().findOrder("DAY-" + i).orElseThrow();
                    journal.submission().markSending(row.id(), Instant.now());
                    // as the provider settled it (the sandbox fails a customer number ending in 0000)
                    RowState state = switch (order.status()) {
                        case "success" -> RowState.SUCCESS;
                        case "failed" -> RowState.FAILED;
                        default -> RowState.PENDING;
                    };
                    journal.submission().recordOutcome(row.id(), state, order.serialNumber(), order.price(), order.status());
                }
            }
            System.out.printf(Locale.ROOT, "  the day set up in %.1f s: %d orders at the provider and in the journal%n",
                    (System.nanoTime() - setUp) / 1e9, DAY_ORDERS);
            jar.drop("running.csv", OrderFigures.instantRows("RUN-", 2_000));
            jar.start();
            long before = sandbox.stats().totalRequests();
            Poll.until("the running batch sending", Duration.ofMinutes(2), () -> sandbox.stats().totalRequests() > before + 30);

            List<String> cmd = new ArrayList<>(List.of(BuiltJar.java(),
                    "-jar", BuiltJar.path().toAbsolutePath().toString(),
                    "reconcile", LocalDate.now(ZoneId.of("Asia/Jakarta")).toString()));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(jar.home.toFile()).redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
            pb.environment().putAll(jar.env);
            long requestsAtStart = sandbox.stats().totalRequests();
            long ordersAtStart = sandbox.ledger().size();
            long started = System.nanoTime();
            Process reconcile = pb.start();
            String output = new String(reconcile.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            reconcile.waitFor(30, TimeUnit.MINUTES);
            double seconds = (System.nanoTime() - started) / 1e9;
            long allRequests = sandbox.stats().totalRequests() - requestsAtStart;
            long batchOrders = sandbox.ledger().size() - ordersAtStart;
            jar.kill();
            SandboxStats stats = sandbox.stats();
            System.out.print(output.lines().map(l -> "    | " + l + "\n").reduce("", String::concat));
            System.out.printf(Locale.ROOT, "  product    reconcile exit %d in %.1f s; meanwhile the running batch placed %d orders;"
                            + " %d provider requests in all while it ran (the batch's and the reconciliation's);"
                            + " busiest 60 s window %d of %d; %d answers 429   load %s%n",
                    reconcile.exitValue(), seconds, batchOrders, allRequests, stats.busiestWindow(),
                    sandbox.config().tier().limitPerMinute(), stats.rateLimited(), Machine.load());
            jar.delete();
        }
    }
}
