package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxTier;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.Poll;

/**
 * Two nodes on one PostgreSQL journal (docs/two-nodes.md#two-nodes): the built jar runs twice in watch
 * mode on a shared inbox, reports and data folder, against one sandbox (gold tier, latency,
 * orders that stay pending a while, webhooks sent to the node that starts as the standby). The
 * active node is SIGKILLed mid-batch; the standby must take over and finish, and the ledger is
 * audited against the reports as in the crash campaign (nothing lost or doubled, no 429, busiest
 * window within the tier). Prints each failover time: from the kill to the new leader's first
 * provider request.
 *
 * <p>With each batch come two small ones that an operator stops while the leader sends them
 * ({@code hold} one, {@code cancel} the other, the jar's commands run beside the nodes): the hold and
 * the cancel must survive the kill, on the new leader, until the hold is resumed (docs/operating.md#cancel-hold-resume); {@link OperatorLog} checks that neither was ordered while stopped.
 *
 * <p>One kill by default; {@code -Dfailover.kills=10} kills the leader again and again, the two
 * nodes taking turns (the killed one is restarted and stands by).
 */
class FailoverE2ETest {

    static final int KILLS = Integer.getInteger("failover.kills", 1);
    private static final Duration STEP_LIMIT = Duration.ofSeconds(90);

    @TempDir
    Path home;

    @Test
    void the_standby_takes_over_from_a_killed_leader_and_finishes_with_nothing_lost_or_doubled() throws Exception {
        long seed = Long.getLong("failover.seed", System.nanoTime());
        Random random = new Random(seed);
        int rows = KILLS == 1 ? 300 : 100;
        System.out.println("failover: seed " + seed + ", " + KILLS + " kills, " + rows + " rows per batch");
        SandboxConfig config = SandboxConfig.defaults().setSeed(seed).setTier(SandboxTier.GOLD)
                .setBalance(1_000_000_000L) // ten batches would spend the demo balance
                .setLatency(DurationRange.of(Duration.ofMillis(5), Duration.ofMillis(150)))
                .setSettleDelay(DurationRange.of(Duration.ofMillis(200), Duration.ofMillis(3000)))
                .setWebhookDuplicateRate(0.1);
        List<CampaignBatch> batches = new ArrayList<>();
        List<Duration> failovers = new ArrayList<>();
        OperatorLog operator = new OperatorLog();
        ProductProcess a = null;
        ProductProcess b = null;
        try (CampaignJournal journal = CampaignJournal.postgres(home.resolve("postgres"));
             SandboxProvider sandbox = SandboxProvider.start(config, 0)) {
            a = node("a", sandbox, journal, null);
            b = node("b", sandbox, journal, a);
            sandbox.config().setWebhookUrl(b.webhookUrl()); // webhooks land on the standby
            a.start(null);
            awaitLog(a, "node a is active on journal");
            b.start(null);
            awaitLog(b, "node b standing by: node a is active on journal");
            // a standby is healthy: a load balancer keeps sending it webhooks
            assertThat(awaitHealth(b, "\"role\":\"standby\"")).startsWith("{\"status\":\"UP\"").contains("\"name\":\"b\"");

            for (int kill = 1; kill <= KILLS; kill++) {
                ProductProcess leader = kill % 2 == 1 ? a : b;
                ProductProcess standby = leader == a ? b : a;
                CampaignBatch batch = CampaignBatch.generate("batch-" + kill + ".csv", "F" + kill + "-", rows, random);
                CampaignBatch toHold = CampaignBatch.generate("hold-" + kill + ".csv", "H" + kill + "-", 40, random);
                CampaignBatch toCancel = CampaignBatch.generate("cancel-" + kill + ".csv", "X" + kill + "-", 40, random);
                for (CampaignBatch each : List.of(batch, toHold, toCancel)) {
                    a.drop(each.fileName(), each.content());
                    batches.add(each);
                }
                await("the leader to send the small batches", leader,
                        () -> ordered(sandbox, toHold) >= 3 && ordered(sandbox, toCancel) >= 3);
                assertThat(a.command("hold", toHold.fileName())).contains("is held:");
                operator.held(toHold.fileName(), java.time.Instant.now());
                assertThat(a.command("cancel", toCancel.fileName())).contains("is cancelled:");
                operator.cancelled(toCancel.fileName(), java.time.Instant.now());
                long accepted = batch.acceptedByRef().values().stream().filter(ok -> ok).count();
                await("the leader to order a third of " + batch.fileName(), leader,
                        () -> ordered(sandbox, batch) >= accepted / 3);

                leader.kill();
                long requestsAtKill = sandbox.stats().totalRequests();
                long killedAt = System.nanoTime();
                await("the standby's first provider request after the kill", standby,
                        () -> sandbox.stats().totalRequests() > requestsAtKill);
                Duration failover = Duration.ofNanos(System.nanoTime() - killedAt);
                failovers.add(failover);
                System.out.println("  kill " + kill + ": failover " + failover.toMillis() + " ms");
                assertThat(standby.output()).contains("is active on journal");

                leader.start(null); // back as the standby
                String name = leader == a ? "a" : "b";
                awaitLog(leader, "node " + name + " standing by");
                if (kill == 1) {
                    String active = name.equals("a") ? "b" : "a";
                    assertThat(awaitHealth(standby, "\"role\":\"leader\"")).contains("\"name\":\"" + active + "\"");
                    assertThat(status(standby)).as("status names the active node first, then those standing by")
                            .startsWith("Nodes: " + active + " (active, connected ").contains(", " + name + " (standing by, ");
                }
                // the new leader finishes the batch and reports the cancelled one; the held one waits
                Path reports = a.reports;
                await("the new leader to report " + batch.fileName() + " and " + toCancel.fileName(), standby,
                        () -> finished(reports, batch) && finished(reports, toCancel));
                assertThat(status(standby).lines().filter(l -> l.contains(toHold.fileName())))
                        .as("status after the failover").singleElement().asString().contains("held");
                operator.resuming(toHold.fileName(), java.time.Instant.now());
                assertThat(a.command("resume", toHold.fileName())).contains("goes on:");
            }
            ProductProcess last = KILLS % 2 == 1 ? b : a;
            Path reports = a.reports;
            await("every batch reported", last, () -> batches.stream().allMatch(batch -> finished(reports, batch)));
            a.kill();
            b.kill();

            LedgerAudit.Result audit = LedgerAudit.check(sandbox, a, batches);
            List<String> anomalies = new ArrayList<>(audit.anomalies());
            anomalies.addAll(operator.ordersWhileStopped(sandbox.ledger(), batches));
            var stats = sandbox.stats();
            String figures = String.format("failover on PostgreSQL, seed %d: %d kills, failover times %s ms"
                            + " (max %d ms), %d orders checked, %d anomalies, busiest window %d of %d, %d answers 429",
                    seed, failovers.size(), failovers.stream().map(Duration::toMillis).toList(),
                    failovers.stream().mapToLong(Duration::toMillis).max().orElse(0), audit.ordersChecked(),
                    anomalies.size(), stats.busiestWindow(), config.tier().limitPerMinute(), stats.rateLimited());
            System.out.println(figures);
            assertThat(anomalies).as(figures).isEmpty();
            assertThat(audit.ordersChecked()).as(figures).isGreaterThan(0);
        } finally {
            if (a != null) {
                a.kill();
            }
            if (b != null) {
                b.kill();
            }
        }
    }

    /** How many of the batch's rows the provider has an order for. */
    static long ordered(SandboxProvider sandbox, CampaignBatch batch) {
        java.util.Set<String> refs = new java.util.HashSet<>(batch.refs());
        return sandbox.ledger().stream().filter(order -> refs.contains(order.refId())).count();
    }

    /** Reported with every row final: no row left pending (a held batch's report shows its queued rows pending). */
    static boolean finished(Path reports, CampaignBatch batch) {
        Path summary = reports.resolve(batch.baseName() + ".summary.json");
        try {
            if (!Files.exists(summary)) {
                return false;
            }
            com.fasterxml.jackson.databind.JsonNode s = new com.fasterxml.jackson.databind.ObjectMapper().readTree(summary.toFile());
            // a held batch's unsent rows are queued (not pending) in its summary: finished is neither
            return s.path("pending").asLong(-1) == 0 && s.path("queued").asLong(0) == 0;
        } catch (IOException halfWritten) {
            return false;
        }
    }

    /** A node in a home of its own (its logs, its webhook port) on the shared folders of {@code shared}. */
    private ProductProcess node(String name, SandboxProvider sandbox, CampaignJournal journal, ProductProcess shared)
            throws IOException {
        ProductProcess node = new ProductProcess(Files.createDirectories(home.resolve("node-" + name)), sandbox.baseUrl());
        node.env.putAll(journal.settings());
        node.env.put("TOPUP_MODE", "watch");
        node.env.put("TOPUP_NODE_NAME", name);
        node.env.put("TOPUP_MANAGEMENT_PORT", Integer.toString(FreePorts.pick())); // its health, on a port of its own
        if (shared != null) {
            node.env.put("TOPUP_INBOX", shared.inbox.toString());
            node.env.put("TOPUP_REPORTS", shared.reports.toString());
            node.env.put("TOPUP_DATA", shared.home.resolve("data").toString());
        }
        return node;
    }

    /** The node's readiness with every check's details, once it contains {@code text}. */
    private static String awaitHealth(ProductProcess node, String text) throws InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + node.env.get("TOPUP_MANAGEMENT_PORT")
                + "/observe/health?exposureLevel=full&data=true");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        String[] last = {"(no answer)"};
        await("the health answer with " + text, node, () -> {
            try {
                last[0] = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                return last[0].contains(text);
            } catch (IOException notYet) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        return last[0];
    }

    /** {@code java -jar topup-batch.jar status} with the node's settings, as an operator runs it beside the nodes. */
    private static String status(ProductProcess node) throws IOException, InterruptedException {
        return org.topupbatch.testing.BuiltJar.command(node.env, "status");
    }

    private static void awaitLog(ProductProcess node, String line) throws InterruptedException {
        await("the log line '" + line + "'", node, () -> node.output().contains(line));
    }

    /** Waits for a condition; fails with the node's output when the node dies or the wait overruns. */
    private static void await(String what, ProductProcess node, BooleanSupplier condition) {
        if (Poll.atMost(STEP_LIMIT, condition::getAsBoolean, met -> met || !node.alive())) {
            return;
        }
        if (!node.alive()) {
            throw new AssertionError("node died while waiting for " + what + ":\n" + node.output());
        }
        throw new AssertionError("no " + what + " within " + STEP_LIMIT + ":\n" + node.output());
    }
}
