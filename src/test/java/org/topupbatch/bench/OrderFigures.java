package org.topupbatch.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxStats;
import org.topupbatch.sandbox.SandboxTier;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.Poll;

/**
 * The figures that place orders: the built jar (target/topup-batch.jar) against a sandbox in this
 * process, and beside it a naive client (one create-order after another) on the same settings.
 */
final class OrderFigures {

    static final int ORDERS = Integer.getInteger("bench.orders", 1_200);
    static final int NAIVE_ORDERS = Integer.getInteger("bench.naive.orders", 60);
    static final DurationRange LATENCY = DurationRange.parse(System.getProperty("bench.latency", "400ms-1200ms"));
    static final SandboxTier TIER = SandboxTier.GOLD;

    private OrderFigures() {
    }

    static SandboxConfig sandboxSettings() {
        return SandboxConfig.defaults().setTier(TIER).setBalance(10_000_000_000L).setLatency(LATENCY);
    }

    // ---- rate use and CPU

    static void rate() throws Exception {
        System.out.printf(Locale.ROOT, "%n== rate use and CPU: %s (limit %d/min), %d instant orders, latency %s ==%n",
                TIER, TIER.limitPerMinute(), ORDERS, LATENCY);
        try (SandboxProvider sandbox = SandboxProvider.start(sandboxSettings(), "127.0.0.1", 0)) {
            JarProcess jar = JarProcess.once(sandbox, false);
            jar.drop("rate.csv", instantRows("RATE-", ORDERS));
            jar.start();
            jar.awaitExit(Duration.ofMinutes(30));
            printRate("product", sandbox.ledger(), sandbox.stats());
            printTimeline(sandbox.ledger(), sandbox.stats());
            System.out.printf(Locale.ROOT, "  product    client CPU %.1f s over %d orders = %.1f ms per order   load %s%n",
                    jar.cpuSeconds, ORDERS, 1000 * jar.cpuSeconds / Math.max(1, ORDERS), Machine.load());
            jar.delete();
        }
        try (SandboxProvider sandbox = SandboxProvider.start(sandboxSettings(), "127.0.0.1", 0)) {
            NaiveClient naive = new NaiveClient(sandbox);
            for (int i = 1; i <= NAIVE_ORDERS; i++) {
                naive.createOrder("NAIVE-" + i, "FF100", Integer.toString(100_000_000 + i), null);
            }
            System.out.printf(Locale.ROOT, "  (naive client: the first %d of the orders, one after another)%n", NAIVE_ORDERS);
            printRate("naive", sandbox.ledger(), sandbox.stats());
        }
    }

    private static void printRate(String who, List<LedgerEntry> ledger, SandboxStats stats) {
        if (ledger.size() < 2) {
            System.out.println("  " + who + ": fewer than 2 orders placed");
            return;
        }
        double minutes = Duration.between(ledger.get(0).createdAt(), ledger.get(ledger.size() - 1).createdAt())
                .toMillis() / 60_000.0;
        double perMinute = (ledger.size() - 1) / minutes;
        System.out.printf(Locale.ROOT, "  %-10s %d orders in %.1f s: %.1f create-orders/min = %.3f of the limit;"
                        + " busiest 60 s window %d requests; %d answers 429   load %s%n", who, ledger.size(), minutes * 60,
                perMinute, perMinute / TIER.limitPerMinute(), stats.busiestWindow(), stats.rateLimited(), Machine.load());
    }

    /**
     * The shape of the run: create-orders per 10 s from the first one (sandbox ledger arrival
     * times), so a gap or a slow round shows; the other calls only as totals (the sandbox keeps
     * no times for them).
     */
    static void printTimeline(List<LedgerEntry> ledger, SandboxStats stats) {
        if (ledger.isEmpty()) {
            return;
        }
        List<Instant> arrivals = ledger.stream().map(LedgerEntry::createdAt).sorted().toList();
        Instant first = arrivals.get(0);
        int buckets = (int) (Duration.between(first, arrivals.get(arrivals.size() - 1)).toMillis() / 10_000) + 1;
        int[] perBucket = new int[buckets];
        for (Instant t : arrivals) {
            perBucket[(int) (Duration.between(first, t).toMillis() / 10_000)]++;
        }
        StringBuilder line = new StringBuilder("  timeline   create-orders per 10 s from the first:");
        for (int i = 0; i < buckets; i++) {
            line.append(i % 6 == 0 ? "\n    " + String.format(Locale.ROOT, "%4d s:", i * 10) : "").append(String.format(Locale.ROOT, " %4d", perBucket[i]));
        }
        System.out.println(line);
        System.out.println("  calls      " + stats.requestsPerOperation());
        int limit = TIER.limitPerMinute();
        if (arrivals.size() > limit) {
            // a slot comes back one window (plus margin and the call's latency) after it was used:
            // order i and order i+limit share a slot when no other call comes between them
            List<Long> hops = new java.util.ArrayList<>();
            for (int i = 0; i + limit < arrivals.size(); i++) {
                hops.add(Duration.between(arrivals.get(i), arrivals.get(i + limit)).toMillis());
            }
            hops.sort(Comparator.naturalOrder());
            long others = stats.totalRequests() - stats.requestsPerOperation().getOrDefault("create-order", 0L);
            long windows = (arrivals.size() + others - 1) / limit;
            double shortest = hops.get(0) / 1000.0;
            System.out.printf(Locale.ROOT, "  windows    order i to order i+%d: shortest %.2f s, median %.2f s; %d orders + %d other"
                            + " calls need %d window hops after the first; even if every hop were the shortest, the"
                            + " last order would come %.1f s after the first (%.3f of the limit)%n", limit, shortest,
                    hops.get(hops.size() / 2) / 1000.0, arrivals.size(), others, windows, windows * shortest,
                    (arrivals.size() - 1) / (windows * shortest / 60.0) / limit);
        }
    }

    // ---- restart

    static void restart() throws Exception {
        int killAfter = Integer.getInteger("bench.kill.after", 200);
        System.out.printf(Locale.ROOT, "%n== restart: SIGKILL after %d of %d orders, restart ==%n", killAfter, ORDERS);
        try (SandboxProvider sandbox = SandboxProvider.start(sandboxSettings(), "127.0.0.1", 0)) {
            JarProcess jar = JarProcess.once(sandbox, false);
            jar.drop("restart.csv", instantRows("RESTART-", ORDERS));
            jar.start();
            Poll.atMost(Duration.ofMinutes(10), () -> sandbox.ledger().size(), placed -> placed >= killAfter || !jar.alive());
            jar.kill();
            int before = sandbox.ledger().size();
            Instant restartedAt = Instant.now();
            jar.start();
            Instant next = Poll.atMost(Duration.ofMinutes(10), () -> sandbox.ledger().stream().map(LedgerEntry::createdAt)
                    .filter(t -> !t.isBefore(restartedAt)).min(Comparator.naturalOrder()).orElse(null),
                    first -> first != null || !jar.alive());
            jar.kill();
            List<Instant> creates = sandbox.ledger().stream().map(LedgerEntry::createdAt)
                    .filter(t -> t.isBefore(restartedAt)).sorted().toList();
            Instant room = firstRoom(creates, restartedAt, TIER.limitPerMinute());
            System.out.printf(Locale.ROOT, "  product    %d orders before the kill; restart to next create-order %.2f s;"
                            + " the window had room %.2f s after the restart (from create-order arrivals)   load %s%n",
                    before, next == null ? Double.NaN : Duration.between(restartedAt, next).toMillis() / 1000.0,
                    Duration.between(restartedAt, room).toMillis() / 1000.0, Machine.load());
            System.out.println("  naive      keeps no journal: it would start over at once and order the first "
                    + before + " rows twice");
            jar.delete();
        }
    }

    /** The first moment at or after {@code from} when fewer than {@code limit} of {@code arrivals} lie in the last 60 s. */
    static Instant firstRoom(List<Instant> arrivals, Instant from, int limit) {
        if (arrivals.size() < limit) {
            return from;
        }
        // the window has room once the limit-th newest arrival is 60 s old
        Instant opens = arrivals.get(arrivals.size() - limit).plusSeconds(60);
        return opens.isAfter(from) ? opens : from;
    }

    // ---- overhead and settle-to-report

    static void overhead() throws Exception {
        System.out.printf(Locale.ROOT, "%n== overhead: %d orders, 30%% pending (async), latency %s ==%n", ORDERS, LATENCY);
        overheadRun(false);
        overheadRun(true);
    }

    static void settle() throws Exception {
        System.out.printf(Locale.ROOT, "%n== settle-to-report: %d orders, 30%% pending, webhooks on ==%n", ORDERS);
        overheadRun(true);
    }

    private static void overheadRun(boolean webhooks) throws Exception {
        int port = webhooks ? FreePorts.pick() : 0;
        SandboxConfig settings = sandboxSettings();
        if (webhooks) {
            settings.setWebhookUrl("http://127.0.0.1:" + port + "/webhook");
        }
        try (SandboxProvider sandbox = SandboxProvider.start(settings, "127.0.0.1", 0)) {
            JarProcess jar = JarProcess.once(sandbox, webhooks);
            jar.env.put("TOPUP_WEBHOOK_PORT", Integer.toString(port));
            StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
            for (int i = 1; i <= ORDERS; i++) {
                if (i % 10 < 3) {
                    csv.append("OVH-").append(i).append(",GI60,").append(800_000_000 + i).append(",asia\n");
                } else {
                    csv.append("OVH-").append(i).append(",FF100,").append(100_000_000 + i).append(",\n");
                }
            }
            jar.drop("overhead.csv", csv.toString());
            jar.start();
            jar.awaitExit(Duration.ofMinutes(40));
            SandboxStats stats = sandbox.stats();
            long creates = stats.requestsPerOperation().getOrDefault("create-order", 0L);
            long others = stats.totalRequests() - creates;
            System.out.printf(Locale.ROOT, "  product    webhooks %-3s: %d calls, %d create-order, %d others = %.2f %% %s   load %s%n",
                    webhooks ? "on" : "off", stats.totalRequests(), creates, others,
                    100.0 * others / Math.max(1, stats.totalRequests()), stats.requestsPerOperation(), Machine.load());
            if (webhooks) {
                Instant lastSettled = sandbox.ledger().stream().map(LedgerEntry::settledAt)
                        .filter(java.util.Objects::nonNull).max(Comparator.naturalOrder()).orElse(null);
                Instant report = jar.newestReport();
                System.out.printf(Locale.ROOT, "  product    settle-to-report: last settled %s, report on disk %s: %.2f s   load %s%n",
                        lastSettled, report, lastSettled == null || report == null ? Double.NaN
                                : Duration.between(lastSettled, report).toMillis() / 1000.0, Machine.load());
            }
            jar.delete();
        }
        System.out.println("  naive      " + (webhooks ? "has no webhook receiver: same as off" 
                : "checks each pending order until final: at least one check-order per pending order, "
                + "so at least " + (ORDERS * 3 / 10) + " extra calls = "
                + String.format(Locale.ROOT, "%.1f %%", 100.0 * (ORDERS * 3 / 10) / (ORDERS + ORDERS * 3 / 10))));
    }

    // ---- start

    static void start() throws Exception {
        System.out.println("\n== start: jar start to the first provider request (sandbox in this process, no latency) ==");
        try (SandboxProvider sandbox = SandboxProvider.start(SandboxConfig.defaults(), "127.0.0.1", 0)) {
            JarProcess jar = JarProcess.once(sandbox, false);
            long t0 = System.nanoTime();
            jar.start();
            while (sandbox.stats().totalRequests() == 0 && jar.alive()) {
                Thread.sleep(5); // not Poll: this wait is the measurement, so it looks every 5 ms
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            jar.awaitExit(Duration.ofMinutes(2));
            System.out.printf(Locale.ROOT, "  product    %.2f s   load %s%n", seconds, Machine.load());
            jar.delete();
        }
    }

    // ---- helpers

    static String instantRows(String prefix, int rows) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= rows; i++) {
            csv.append(prefix).append(i).append(",FF100,").append(100_000_000 + i).append('\n');
        }
        return csv.toString();
    }


    /** The jar in a folder of its own; its CPU time is sampled while it runs. */
    static final class JarProcess {
        final Path home;
        final Map<String, String> env = new java.util.LinkedHashMap<>();
        volatile double cpuSeconds;
        private Process process;

        private JarProcess(Path home) {
            this.home = home;
        }

        static JarProcess once(SandboxProvider sandbox, boolean webhooks) throws IOException {
            JarProcess jar = new JarProcess(Files.createTempDirectory("topup-bench-jar"));
            jar.env.put("TOPUP_MODE", "once");
            jar.env.put("TOPUP_BASE_URL", sandbox.baseUrl());
            jar.env.put("TOPUP_API_KEY", sandbox.config().apiKey());
            jar.env.put("TOPUP_API_SECRET", sandbox.config().apiSecret());
            jar.env.put("TOPUP_INBOX", jar.home.resolve("inbox").toString());
            jar.env.put("TOPUP_REPORTS", jar.home.resolve("reports").toString());
            jar.env.put("TOPUP_DATA", jar.home.resolve("data").toString());
            jar.env.put("TOPUP_WEBHOOK_HOST", "127.0.0.1");
            jar.env.put("TOPUP_WEBHOOK_PORT", "0");
            jar.env.put("TOPUP_MANAGEMENT_PORT", "0");
            if (webhooks) {
                jar.env.put("TOPUP_WEBHOOK_SECRET", sandbox.config().webhookSecret());
            }
            Files.createDirectories(jar.home.resolve("inbox"));
            return jar;
        }

        void drop(String name, String content) throws IOException {
            Files.writeString(home.resolve("inbox").resolve(name), content);
        }

        void start() throws IOException {
            Path jarFile = Path.of(System.getProperty("topup.jar", "target/topup-batch.jar")).toAbsolutePath();
            ProcessBuilder pb = new ProcessBuilder(BuiltJar.java(), "-jar", jarFile.toString())
                    .directory(home.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("run.log").toFile()));
            pb.environment().putAll(env);
            process = pb.start();
            long pid = process.pid();
            Thread sampler = new Thread(() -> {
                while (process.isAlive()) {
                    double cpu = ProcStatus.cpuSeconds(pid);
                    if (cpu >= 0) {
                        cpuSeconds = cpu;
                    }
                    try {
                        Thread.sleep(100); // the sampling period
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.setDaemon(true);
            sampler.start();
        }

        boolean alive() {
            return process.isAlive();
        }

        void awaitExit(Duration limit) throws InterruptedException {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                System.out.println("  !! the run did not end within " + limit + "; see " + home.resolve("run.log"));
                kill();
            }
        }

        /** SIGKILL: Process.destroyForcibly on Linux. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor();
        }

        Instant newestReport() throws IOException {
            Path reports = home.resolve("reports");
            if (!Files.isDirectory(reports)) {
                return null;
            }
            try (Stream<Path> files = Files.walk(reports)) {
                return files.filter(Files::isRegularFile).map(f -> Instant.ofEpochMilli(f.toFile().lastModified()))
                        .max(Comparator.naturalOrder()).orElse(null);
            }
        }

        void delete() throws IOException {
            Benchmark.deleteTree(home);
        }
    }

    /** The baseline: one signed create-order after another, no concurrency, no journal. */
    static final class NaiveClient {
        private final HttpClient http = HttpClient.newHttpClient();
        private final ObjectMapper json = new ObjectMapper();
        private final SandboxProvider sandbox;

        NaiveClient(SandboxProvider sandbox) {
            this.sandbox = sandbox;
        }

        int createOrder(String refId, String sku, String customerNo, String zone) throws Exception {
            ObjectNode body = json.createObjectNode();
            body.put("api_key", sandbox.config().apiKey());
            body.put("sign", md5(sandbox.config().apiKey() + sandbox.config().apiSecret() + refId));
            body.put("ref_id", refId);
            body.put("product_sku", sku);
            body.put("customer_no", customerNo);
            if (zone != null) {
                body.put("customer_no_zone", zone);
            }
            HttpRequest request = HttpRequest.newBuilder(URI.create(sandbox.baseUrl() + "/v1/create-order"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
            return http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
        }

        private static String md5(String text) throws Exception {
            byte[] digest = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            return String.format("%032x", new BigInteger(1, digest));
        }
    }

}
