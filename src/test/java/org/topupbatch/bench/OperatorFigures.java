package org.topupbatch.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.Poll;

/**
 * Fair batches and the operator's cancel, on the built jar in watch mode against a gold sandbox at
 * latency {@code -Dbench.latency}: the time from dropping a 10-row batch behind a 1,000-row one to its
 * report, and the time from {@code cancel} (the jar's command, from another process) to the last
 * order of the cancelled batch that reached the provider.
 */
final class OperatorFigures {

    private OperatorFigures() {
    }

    static void run() throws Exception {
        smallBehindLarge();
        cancel();
    }

    static void smallBehindLarge() throws Exception {
        System.out.printf(Locale.ROOT, "%n== a 10-row batch dropped behind a 1,000-row one, latency %s ==%n", OrderFigures.LATENCY);
        try (SandboxProvider sandbox = SandboxProvider.start(OrderFigures.sandboxSettings(), "127.0.0.1", 0)) {
            OrderFigures.JarProcess jar = OrderFigures.JarProcess.once(sandbox, false);
            jar.env.put("TOPUP_MODE", "watch");
            jar.drop("large.csv", OrderFigures.instantRows("LARGE-", 1_000));
            jar.start();
            Poll.atMost(Duration.ofMinutes(5), () -> sandbox.ledger().size(), n -> n >= 100);
            Instant dropped = Instant.now();
            jar.drop("small.csv", OrderFigures.instantRows("SMALL-", 10).replace("FF100,1", "FF100,7"));
            Path report = jar.home.resolve("reports").resolve("small.result.csv");
            Poll.atMost(Duration.ofMinutes(10), () -> Files.exists(report), Boolean.TRUE::equals);
            double seconds = Duration.between(dropped, Instant.now()).toMillis() / 1000.0;
            long large = sandbox.ledger().stream().filter(e -> e.refId().startsWith("LARGE-")).count();
            System.out.printf(Locale.ROOT, "  product    reported %.1f s after the drop, with %d of the large batch's 1,000"
                    + " orders placed by then   load %s%n", seconds, large, Machine.load());
            System.out.printf(Locale.ROOT, "  before     oldest batch first: after the large batch, about %.0f s at 300 a minute%n",
                    (1_000 - 100) / 5.0);
            jar.kill();
            jar.delete();
        }
    }

    static void cancel() throws Exception {
        System.out.printf(Locale.ROOT, "%n== cancel: a 1,000-row batch cancelled after 100 orders, latency %s ==%n", OrderFigures.LATENCY);
        try (SandboxProvider sandbox = SandboxProvider.start(OrderFigures.sandboxSettings(), "127.0.0.1", 0)) {
            OrderFigures.JarProcess jar = OrderFigures.JarProcess.once(sandbox, false);
            jar.env.put("TOPUP_MODE", "watch");
            jar.drop("wrong.csv", OrderFigures.instantRows("WRONG-", 1_000));
            jar.start();
            Poll.atMost(Duration.ofMinutes(5), () -> sandbox.ledger().size(), n -> n >= 100);
            Instant asked = Instant.now();
            ProcessBuilder pb = new ProcessBuilder(BuiltJar.java(), "-jar",
                    Path.of(System.getProperty("topup.jar", "target/topup-batch.jar")).toAbsolutePath().toString(), "cancel", "wrong.csv")
                    .directory(jar.home.toFile()).redirectErrorStream(true);
            pb.environment().putAll(jar.env);
            Process command = pb.start();
            String said = new String(command.getInputStream().readAllBytes()).trim();
            command.waitFor();
            Instant returned = Instant.now();
            Thread.sleep(5_000);
            Instant last = sandbox.ledger().stream().map(LedgerEntry::createdAt).max(Comparator.naturalOrder()).orElseThrow();
            System.out.printf(Locale.ROOT, "  product    the command took %.2f s (a JVM start); the last order reached the"
                            + " provider %.2f s after it returned (negative: before); %d orders in all   load %s%n  said       %s%n",
                    Duration.between(asked, returned).toMillis() / 1000.0, Duration.between(returned, last).toMillis() / 1000.0,
                    sandbox.ledger().size(), Machine.load(), said);
            jar.kill();
            jar.delete();
        }
    }
}
