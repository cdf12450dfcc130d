package org.topupbatch.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxStats;
import org.topupbatch.sandbox.SandboxTier;

/**
 * Prints how close a once-mode run comes to the account's rate limit: the built jar against a
 * sandbox with the given tier and latency, N instant orders. Not a test: it asserts nothing.
 *
 * <pre>
 * mvn -q -DskipTests package test-compile
 * java -cp target/test-classes:target/topup-batch.jar org.topupbatch.bench.ThroughputBenchmark [rows] [tier] [latency]
 * e.g. ... ThroughputBenchmark 400 gold 200ms-800ms
 * </pre>
 */
public final class ThroughputBenchmark {

    private ThroughputBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        SandboxTier tier = SandboxTier.valueOf((args.length > 1 ? args[1] : "gold").toUpperCase(Locale.ROOT));
        DurationRange latency = DurationRange.parse(args.length > 2 ? args[2] : "200ms-800ms");
        Path home = Files.createTempDirectory("topup-bench");
        Path inbox = Files.createDirectories(home.resolve("inbox"));
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= rows; i++) {
            csv.append("BENCH-").append(i).append(",FF100,").append(10_000_000 + i).append('\n');
        }
        Files.writeString(inbox.resolve("bench.csv"), csv);

        try (SandboxProvider sandbox = SandboxProvider.start(SandboxConfig.defaults().setTier(tier)
                .setBalance(1_000_000_000L).setLatency(latency), 0)) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", Path.of("target/topup-batch.jar").toAbsolutePath().toString())
                    .directory(home.toFile()).redirectErrorStream(true)
                    .redirectOutput(home.resolve("run.log").toFile());
            pb.environment().put("TOPUP_MODE", "once");
            pb.environment().put("TOPUP_BASE_URL", sandbox.baseUrl());
            pb.environment().put("TOPUP_API_KEY", sandbox.config().apiKey());
            pb.environment().put("TOPUP_API_SECRET", sandbox.config().apiSecret());
            pb.environment().put("TOPUP_WEBHOOK_PORT", "0");
            Instant start = Instant.now();
            Process p = pb.start();
            if (!p.waitFor(30, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("the run did not end in 30 minutes; see " + home.resolve("run.log"));
            }
            List<LedgerEntry> ledger = sandbox.ledger();
            SandboxStats stats = sandbox.stats();
            Instant first = ledger.get(0).createdAt();
            Instant last = ledger.get(ledger.size() - 1).createdAt();
            double orderMinutes = Math.max(1, Duration.between(first, last).toMillis()) / 60_000.0;
            System.out.printf(Locale.ROOT, "rows %d, tier %s (limit %d/min), latency %s, exit code %d%n",
                    rows, tier, tier.limitPerMinute(), latency, p.exitValue());
            System.out.printf(Locale.ROOT, "wall time of the run         %8.1f s%n",
                    Duration.between(start, Instant.now()).toMillis() / 1000.0);
            System.out.printf(Locale.ROOT, "orders placed                %8d%n", ledger.size());
            System.out.printf(Locale.ROOT, "first to last order          %8.1f s%n", orderMinutes * 60);
            System.out.printf(Locale.ROOT, "orders/minute first to last  %8.1f  (%.0f %% of the limit; a rolling window allows a full burst first)%n",
                    (ledger.size() - 1) / orderMinutes, 100 * (ledger.size() - 1) / orderMinutes / tier.limitPerMinute());
            System.out.printf(Locale.ROOT, "requests, all operations     %8d  %s%n", stats.totalRequests(), stats.requestsPerOperation());
            System.out.printf(Locale.ROOT, "busiest 60 s window          %8d  (of %d allowed)%n", stats.busiestWindow(), tier.limitPerMinute());
            System.out.printf(Locale.ROOT, "429 answers                  %8d%n", stats.rateLimited());
        }
    }
}
