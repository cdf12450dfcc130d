package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.PostgresServer;

/**
 * /observe/health and /observe/metrics of the built jar, over HTTP on the management port:
 * ready while the journal answers and the provider takes the credentials, not ready when either
 * stops; the topup_ and JVM metrics in Prometheus text after a batch, clean by promtool, and the
 * deploy/ alert rules and Grafana dashboard naming only metrics that exist.
 */
class ObserveE2ETest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    private final JarRun run = product.run();
    private SandboxProvider sandbox;

    @Test
    void ready_then_metrics_of_a_batch_then_not_ready_when_the_credentials_are_refused() throws Exception {
        sandbox = product.startSandbox(SandboxConfig.defaults().setSettleDelay(DurationRange.parse("0")));
        run.provider(sandbox.baseUrl());
        run.env.put("TOPUP_NODE_NAME", "observe-1");
        run.start();
        String health = awaitHealth("UP");
        assertThat(health).contains("\"status\":\"UP\"");
        // an H2 journal has one node: named all the same, with the role single
        String full = await("/observe/health?exposureLevel=full&data=true", body -> body.contains("\"node\""),
                "the node check");
        assertThat(full).contains("\"name\":\"observe-1\"", "\"role\":\"single\"");
        assertThat(awaitMetric("topup_node_leader")).contains("topup_node_leader{node=\"observe-1\"} 1.0",
                "topup_node_role{node=\"observe-1\",role=\"single\"} 1.0");

        // two orders and a row rejected before any order (a product not in the price list)
        run.drop("metrics.csv", "ref_id,product_sku,customer_no\nOB-1,STEAM45K,a@example.com\nOB-2,STEAM90K,b@example.com\n"
                + "OB-0,NOPE1,z@example.com\n");
        // the first scrape once the report is there already has the batch's duration
        Path summary = run.reports.resolve("metrics.summary.json");
        Poll.until("the report " + summary, Duration.ofSeconds(120), () -> Files.exists(summary));
        String first = scrape();
        assertThat(first).contains("topup_batch_duration_seconds_count 1\n");
        // the journal's gauges come from a reading at most 2 s old: looked at until it is newer
        String metrics = awaitMetric("topup_orders{status=\"success\"} 2.0");
        System.out.println("METRICS SAMPLE (topup_ lines):");
        metrics.lines().filter(l -> l.startsWith("topup_")).forEach(System.out::println);
        System.out.println("JVM AND PROCESS FAMILIES: " + families(metrics).stream()
                .filter(f -> !f.startsWith("topup_")).toList());
        // to the report's writing, which comes after the summary's finished_at (the balance is read
        // between); the summary's times are whole seconds, hence the second of slack
        // (BatchReportWriterTimingTest checks the moment itself)
        JsonNode written = new ObjectMapper().readTree(summary.toFile());
        double untilFinishedAt = Duration.between(Instant.parse(written.get("started_at").asText()),
                Instant.parse(written.get("finished_at").asText())).toMillis() / 1000.0;
        assertThat(sample(metrics, "topup_batch_duration_seconds_sum")).isGreaterThan(untilFinishedAt - 1.0);
        assertThat(metrics).contains(
                "topup_orders{status=\"success\"} 2.0",
                "topup_rows_rejected 1.0",
                "topup_orders_pending 0.0",
                "topup_rows_held{reason=\"product_unavailable\"} 0.0",
                "topup_rows_held{reason=\"batch_held\"} 0.0",
                "topup_products_held 0.0",
                "topup_batches_held 0.0",
                "topup_batches_cancelled 0.0",
                // labelled with the provider: the host of topup.base-url here
                "topup_provider_calls_total{answer=\"200\",operation=\"create-order\",provider=\"127.0.0.1\"} 2.0",
                "topup_provider_latency_seconds_count{operation=\"create-order\",provider=\"127.0.0.1\"} 2",
                "topup_rate_window_limit ",
                "topup_rate_window_used ",
                "topup_balance_rupiah ");
        assertThat(metrics).doesNotContain(SandboxConfig.defaults().apiSecret());
        assertThat(metrics).as("rejected rows are not orders").doesNotContain("topup_orders{status=\"rejected\"}");
        // JVM and process meters under the names standard dashboards read (Micrometer's binders)
        assertThat(families(metrics)).contains("jvm_memory_used_bytes", "jvm_threads_live_threads",
                "jvm_classes_loaded_classes", "jvm_gc_memory_allocated_bytes_total", "process_cpu_usage",
                "system_cpus", "process_uptime_seconds", "process_files_open_files");

        Promtool.Result lint = Promtool.run(metrics, "check", "metrics");
        System.out.println("promtool check metrics (exit " + lint.exitCode() + "): " + lint.output());
        assertThat(lint.exitCode()).as("promtool check metrics on a real scrape:\n" + lint.output()).isZero();
        assertThat(lint.output()).as("no lint problems").isBlank();
        // the alert rules and the Grafana dashboard name only metrics this scrape has
        for (Path deployed : List.of(Path.of("deploy/topup-batch.rules.yml"), Path.of("deploy/topup-batch.grafana.json"))) {
            Matcher named = Pattern.compile("\\b(?:topup|jvm|process|system)_[a-z_]+").matcher(Files.readString(deployed));
            while (named.find()) {
                String name = named.group();
                if (!name.startsWith("jvm_gc_pause")) { // Micrometer registers GC pauses at the first pause
                    assertThat(metrics).as(deployed + " names " + name).containsPattern("(?m)^" + name + "[{ ]");
                }
            }
        }

        // the secret is rotated at the provider: the next answer is a 401, and readiness says so
        sandbox.config().setApiSecret("rotated-secret-1");
        run.drop("refused.csv", "ref_id,product_sku,customer_no\nOB-3,STEAM45K,c@example.com\n");
        String down = awaitHealth("DOWN");
        assertThat(down).contains("refused the credentials").doesNotContain("rotated-secret-1")
                .doesNotContain(SandboxConfig.defaults().apiSecret());
        assertThat(awaitMetric("answer=\"401\"")).contains("topup_provider_calls_total{answer=\"401\"");
    }

    @Test
    void not_ready_when_the_journal_is_gone() throws Exception {
        PostgresServer.Database database = ProductFixture.postgresDatabase();
        run.journalOn(database);
        run.env.put("TOPUP_NODE_NAME", "observe-pg");
        run.start();
        awaitHealth("UP");
        // on PostgreSQL a lone node leads: it holds the journal lock
        assertThat(await("/observe/health?exposureLevel=full&data=true", body -> body.contains("\"role\":\"leader\""),
                "the node check with role leader")).contains("\"name\":\"observe-pg\"");
        assertThat(awaitMetric("topup_node_leader")).contains("topup_node_leader{node=\"observe-pg\"} 1.0",
                "topup_node_role{node=\"observe-pg\",role=\"leader\"} 1.0",
                "topup_node_role{node=\"observe-pg\",role=\"standby\"} 0.0");
        ProductFixture.postgres().superuserExecute("ALTER DATABASE " + database.name() + " ALLOW_CONNECTIONS false",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + database.name() + "'");
        String down = awaitHealth("DOWN");
        assertThat(down).contains("journal does not answer");
        HttpResponse<String> probe = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + run.env.get("TOPUP_MANAGEMENT_PORT") + "/observe/health")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(probe.statusCode()).as("a probe sees not-ready by its status code").isEqualTo(503);
    }

    @Test
    void the_alert_rules_pass_promtool() throws Exception {
        Promtool.Result check = Promtool.run(null, "check", "rules", "deploy/topup-batch.rules.yml");
        System.out.println("promtool check rules (exit " + check.exitCode() + "): " + check.output());
        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: 7 rules found");
    }

    /** One scrape of /observe/metrics, which must answer 200. */
    private String scrape() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + run.env.get("TOPUP_MANAGEMENT_PORT") + "/observe/metrics")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    /** The metric families a scrape declares ({@code # TYPE name ...}). */
    private static List<String> families(String scrape) {
        return scrape.lines().filter(l -> l.startsWith("# TYPE ")).map(l -> l.split(" ")[2]).toList();
    }

    /** The value of the sample line {@code name value}. */
    private static double sample(String scrape, String name) {
        return scrape.lines().filter(l -> l.startsWith(name + " ")).map(l -> Double.parseDouble(l.substring(name.length() + 1)))
                .findFirst().orElseThrow(() -> new AssertionError("no sample " + name));
    }

    /** The readiness answer with its checks, once its status is {@code status}. */
    private String awaitHealth(String status) throws Exception {
        return await("/observe/health?data=true", body -> body.startsWith("{\"status\":\"" + status + "\""),
                "health " + status);
    }

    private String awaitMetric(String text) throws Exception {
        return await("/observe/metrics", body -> body.contains(text), "a metrics line with " + text);
    }

    private String await(String path, java.util.function.Predicate<String> done, String what) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT") + path);
        String[] last = {"(no answer)"};
        String body = Poll.atMost(Duration.ofSeconds(120), () -> {
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString());
                last[0] = r.statusCode() + " " + r.body();
                return done.test(r.body()) ? r.body() : null;
            } catch (java.io.IOException notYet) {
                last[0] = "(no answer: " + notYet + ")";
                return null;
            }
        }, java.util.Objects::nonNull);
        if (body != null) {
            return body;
        }
        throw new AssertionError("no " + what + " within 120 s; last answer: " + last[0] + "\noutput:\n" + run.output());
    }
}
