package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxTier;
import org.topupbatch.testing.Poll;

/**
 * The fault matrix (docs/development.md#crash-campaign-and-fault-matrix): one fault per case, injected while
 * the built jar works through a batch in {@code once} mode, then the same checks as the crash
 * campaign. The run must end with exit 0 and every promise kept. Seed: {@code faults.seed};
 * the outage's length: {@code faults.outage} (default 8s, "a minute" compressed for CI).
 * Every case runs on both journals: {@link FaultMatrixE2ETest} (H2) and
 * {@link FaultMatrixPostgresE2ETest} (embedded PostgreSQL, which adds the database restart).
 */
abstract class FaultMatrix {

    static final long SEED = Long.getLong("faults.seed", System.nanoTime());
    static final Duration OUTAGE = DurationRange.parseDuration(System.getProperty("faults.outage", "8s"));
    private static final Duration RUN_LIMIT = Duration.ofMinutes(3);

    @TempDir
    Path home;

    /** The journal a case runs on; closed after the case. */
    abstract CampaignJournal journal(String caseName) throws IOException;

    /**
     * What a case does to the world once the product has begun to submit. It returns how to tell,
     * once the run is over, that the fault really met the run: a case whose fault never landed would
     * pass the audit while proving nothing, so it fails instead.
     */
    interface Fault {
        Landed inject(SandboxProvider sandbox, ProductProcess product, CampaignBatch batch, WebhookRelay relay) throws Exception;
    }

    /** A fault window: sets the fault, lets it last, ends it. */
    interface Window {
        void run() throws Exception;
    }

    /** Asserts that a case's fault landed (with the evidence in its message) and returns that evidence for the printout. */
    interface Landed {
        String check();
    }

    /** Faults the sandbox answered with (429 storm, outage) during {@code fault}: the evidence of a sandbox-side fault window. */
    static Landed injectedDuring(SandboxProvider sandbox, String what, Window fault) throws Exception {
        long before = sandbox.injectedFaults();
        fault.run();
        long during = sandbox.injectedFaults() - before;
        return () -> {
            assertThat(during).as("requests the sandbox answered with the " + what + " while it lasted").isPositive();
            return during + " requests met the " + what;
        };
    }

    @Test
    void answers_slower_than_the_response_timeout() throws Exception {
        runCase("slow", journal("slow"), Map.of("TOPUP_HTTP_RESPONSE_TIMEOUT", "1s"), null, (sandbox, product, batch, relay) -> {
            sandbox.config().set("latency", "1200ms-2000ms");
            Thread.sleep(6000); // how long the fault lasts: pacing, not waiting for a condition
            sandbox.config().set("latency", "20ms-200ms");
            return () -> {
                // the product's own account of a request it gave up on: TransportFailures' code TIMEOUT
                long timeouts = occurrences(product.allOutput(), "(?<![A-Z_])TIMEOUT(?![A-Z_])");
                assertThat(timeouts).as("requests the product gave up on after its 1 s response timeout").isPositive();
                return timeouts + " mentions of TIMEOUT in the product's log";
            };
        });
    }

    @Test
    void a_429_storm() throws Exception {
        runCase("storm", journal("storm"), Map.of(), null, (sandbox, product, batch, relay) -> injectedDuring(sandbox, "429 storm", () -> {
            sandbox.config().set("rate-limit-storm", "5s");
            Thread.sleep(5000); // the storm's length: pacing, not waiting for a condition
        }));
    }

    @Test
    void the_provider_down_and_back() throws Exception {
        runCase("outage", journal("outage"), Map.of(), null, (sandbox, product, batch, relay) -> injectedDuring(sandbox, "outage", () -> {
            sandbox.config().startOutage(OUTAGE);
            Thread.sleep(OUTAGE.toMillis()); // the outage's length: pacing, not waiting for a condition
        }));
    }

    @Test
    void the_reports_folder_read_only_for_a_while() throws Exception {
        runCase("readonly", journal("readonly"), Map.of(), null, (sandbox, product, batch, relay) -> {
            ReportsFolderBlock block = ReportsFolderBlock.block(product.reports);
            Thread.sleep(6000); // the least the folder stays read-only: pacing
            // and until a write met it: a report is due only once its batch's rows are final, which 6 s may not see
            Poll.atMost(RUN_LIMIT, () -> refusedReports(product), n -> n > 0 || !product.alive());
            block.release();
            return () -> {
                long refused = refusedReports(product);
                assertThat(refused).as("report writes refused while the folder was blocked").isPositive();
                return refused + " report writes refused while the folder was blocked";
            };
        });
    }

    @Test
    void webhooks_duplicated_late_and_out_of_order() throws Exception {
        runCase("webhooks", journal("webhooks"), Map.of(RELAYED, "true"), c -> c.setWebhookDuplicateRate(1.0)
                .setWebhookLateRate(0.5).setWebhookLateDelay(Duration.ofSeconds(3)), (sandbox, product, batch, relay) -> () -> {
                    assertThat(relay.received.get()).as("duplicated webhooks reached the relay: " + relay.figures())
                            .isGreaterThan(relay.distinctBodies());
                    assertThat(relay.replayed.get()).as("webhooks replayed late into the product: " + relay.figures()).isPositive();
                    return relay.figures();
                });
    }

    @Test
    void forged_and_garbage_webhooks_settle_nothing() throws Exception {
        runCase("forged", journal("forged"), Map.of(), c -> c.setSettleDelay(DurationRange.of(Duration.ofSeconds(2),
                Duration.ofSeconds(4))), (sandbox, product, batch, relay) -> {
                    ForgedWebhooks.Sent sent = ForgedWebhooks.send(product, batch, SEED, Duration.ofSeconds(4));
                    return () -> {
                        assertThat(sent.claimsAnswered()).as("forged claims of success the product answered: " + sent).isPositive();
                        assertThat(sent.junkAnswered()).as("junk bodies the product answered: " + sent).isPositive();
                        return sent.toString();
                    };
                });
    }

    /** BatchReporter's line for a report it could not write. */
    static long refusedReports(ProductProcess product) {
        return occurrences(product.allOutput(), "Could not write the report of");
    }

    static long occurrences(String text, String regex) {
        return java.util.regex.Pattern.compile(regex).matcher(text).results().count();
    }

    /** A case setting (not the product's): webhooks pass through a {@link WebhookRelay}. */
    private static final String RELAYED = "relayed";

    void runCase(String name, CampaignJournal journal, Map<String, String> settings,
                         java.util.function.Consumer<SandboxConfig> tune, Fault fault) throws Exception {
        try (journal) {
            runCaseOn(name, journal, settings, tune, fault);
        }
    }

    private void runCaseOn(String name, CampaignJournal journal, Map<String, String> settings,
                           java.util.function.Consumer<SandboxConfig> tune, Fault fault) throws Exception {
        System.out.println("fault matrix case " + name + " on " + journal.name() + ": seed " + SEED);
        Random random = new Random(SEED);
        SandboxConfig config = CrashCampaign.misbehavingSandbox(SEED).setTier(SandboxTier.GOLD)
                .setLatency(DurationRange.of(Duration.ofMillis(20), Duration.ofMillis(200)));
        if (tune != null) {
            tune.accept(config);
        }
        try (SandboxProvider sandbox = SandboxProvider.start(config, 0)) {
            ProductProcess product = new ProductProcess(Files.createDirectories(home.resolve(name)), sandbox.baseUrl());
            product.env.putAll(journal.settings());
            product.env.put("TOPUP_SUBMIT_CONCURRENCY", "2"); // the batch takes long enough for the fault to meet it
            settings.forEach((k, v) -> {
                if (!k.equals(RELAYED)) {
                    product.env.put(k, v);
                }
            });
            WebhookRelay relay = settings.containsKey(RELAYED) ? new WebhookRelay(product.webhookUrl(), SEED) : null;
            sandbox.config().setWebhookUrl(relay == null ? product.webhookUrl() : relay.url());
            CampaignBatch batch = CampaignBatch.generate(name + ".csv", name.toUpperCase() + "-", 24, random);
            product.drop(batch.fileName(), batch.content());

            product.start(null);
            Poll.atMost(RUN_LIMIT, () -> sandbox.stats().requestsPerOperation().get("create-order"), n -> n > 0 || !product.alive());
            Landed landed = fault.inject(sandbox, product, batch, relay);
            int exit = product.await(RUN_LIMIT);
            if (relay != null) {
                relay.close();
            }

            LedgerAudit.Result audit = LedgerAudit.check(sandbox, product, List.of(batch));
            String figures = String.format("case %s: exit %d, %d orders checked, %d injected provider faults, %d anomalies,"
                    + " replay with -Dfaults.seed=%d", name, exit, audit.ordersChecked(), sandbox.injectedFaults(),
                    audit.anomalies().size(), SEED);
            System.out.println(figures);
            assertThat(exit).as(figures + "\n" + product.allOutput()).isZero();
            assertThat(audit.anomalies()).as(figures + "\n" + product.allOutput()).isEmpty();
            assertThat(product.allOutput()).as("the api secret in the log").doesNotContain(config.apiSecret());
            // last: a run that kept every promise proves nothing unless the fault met it
            System.out.println("case " + name + ": the fault landed: " + landed.check());
        }
    }

    /**
     * Makes the reports folder unwritable. A mode change stops anyone but root; under root (CI
     * containers) the folder is put aside and a plain file takes its name, which fails writes alike.
     */
    static final class ReportsFolderBlock {
        private final Path reports;
        private final Path aside;

        private ReportsFolderBlock(Path reports, Path aside) {
            this.reports = reports;
            this.aside = aside;
        }

        static ReportsFolderBlock block(Path reports) throws IOException {
            Files.createDirectories(reports);
            Files.setPosixFilePermissions(reports, PosixFilePermissions.fromString("r-xr-xr-x"));
            if (!Files.isWritable(reports)) {
                return new ReportsFolderBlock(reports, null);
            }
            Files.setPosixFilePermissions(reports, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path aside = reports.resolveSibling("reports-aside");
            Files.move(reports, aside);
            Files.writeString(reports, "not a folder");
            return new ReportsFolderBlock(reports, aside);
        }

        void release() throws IOException {
            if (aside == null) {
                Files.setPosixFilePermissions(reports, PosixFilePermissions.fromString("rwxr-xr-x"));
            } else {
                Files.delete(reports);
                Files.move(aside, reports);
            }
        }
    }

    /** Webhooks no provider sent: claims of success with made-up serials, and junk. None may settle anything. */
    static final class ForgedWebhooks {

        /** What reached the product: forged claims and junk bodies it answered (any status), posts that found no answer. */
        record Sent(int claimsAnswered, int junkAnswered, int unanswered) {
            @Override
            public String toString() {
                return "forged webhooks: " + claimsAnswered + " claims of success and " + junkAnswered
                        + " junk bodies answered, " + unanswered + " posts unanswered";
            }
        }

        static Sent send(ProductProcess product, CampaignBatch batch, long seed, Duration during) throws Exception {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            Random random = new Random(seed);
            long end = System.nanoTime() + during.toNanos();
            int round = 0;
            int claims = 0;
            int junk = 0;
            int unanswered = 0;
            while (System.nanoTime() < end) {
                round++;
                List<String> bodies = bodies(batch, round, random);
                for (int i = 0; i < bodies.size(); i++) {
                    String body = bodies.get(i);
                    HttpRequest request = HttpRequest.newBuilder(URI.create(product.webhookUrl()))
                            .timeout(Duration.ofSeconds(3)).header("Content-Type", "application/json")
                            .header("X-Topup-Event-Id", "forged-" + round + "-" + random.nextInt(1000))
                            .header("X-Topup-Signature", "%064x".formatted(random.nextLong()))
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                    try {
                        client.send(request, HttpResponse.BodyHandlers.discarding());
                        if (i < batch.refs().size()) {
                            claims++;
                        } else {
                            junk++;
                        }
                    } catch (IOException e) {
                        unanswered++; // not listening yet: the next round tries again
                    }
                }
                Thread.sleep(300); // paces the forged rounds, not waiting for a condition
            }
            return new Sent(claims, junk, unanswered);
        }

        private static List<String> bodies(CampaignBatch batch, int round, Random random) {
            java.util.ArrayList<String> bodies = new java.util.ArrayList<>();
            for (String ref : batch.refs()) {
                bodies.add("{\"event\":\"order.status\",\"ref_id\":\"" + ref + "\",\"status\":\"success\","
                        + "\"serial_number\":\"FORGED-" + round + "\",\"price\":1,\"message\":\"forged\","
                        + "\"signature\":\"" + "%032x".formatted(random.nextLong()) + "\",\"timestamp\":\"2026-11-21T10:00:03Z\"}");
            }
            bodies.add("{");
            bodies.add("[1,2,3]");
            bodies.add("{\"ref_id\":null,\"status\":42}");
            bodies.add("x".repeat(70_000));
            return bodies;
        }
    }
}
