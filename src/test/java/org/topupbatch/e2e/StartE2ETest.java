package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.Poll;

/** How the jar starts: with no settings, as the standalone sandbox, and when the provider is away. */
class StartE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    Process process;

    @Test
    void with_no_settings_it_runs_on_the_embedded_sandbox_and_reports_the_inbox() throws Exception {
        JarRun run = product.run();
        // Nothing but where the webhook receiver listens (tests keep servers on loopback);
        // folders, provider and mode are the defaults: ./inbox, ./reports, ./data, embedded sandbox, watch.
        run.env.clear();
        run.env.put("TOPUP_WEBHOOK_HOST", "127.0.0.1");
        run.env.put("TOPUP_WEBHOOK_PORT", Integer.toString(FreePorts.pick()));
        run.drop("first.csv", "ref_id,product_sku,customer_no,customer_no_zone\nQ-1,ML86,123456789,2345\nQ-2,GI60,812345678,asia\n");
        process = run.start();
        Path summary = home.resolve("reports").resolve("first.summary.json");
        Poll.atMost(Duration.ofSeconds(60), () -> Files.exists(summary), written -> written || !process.isAlive());
        assertThat(summary).as(run.output()).exists();
        assertThat(process.isAlive()).as("watch mode keeps running").isTrue();
        Report report = Report.read(home.resolve("reports"), "first", ',');
        assertThat(report.rows()).extracting(r -> r.get("status")).containsExactly("success", "success");
        assertThat(run.output()).contains("EMBEDDED SANDBOX IN USE: no real order will be placed");
        // a clean start says nothing else at WARN or above: a new user reads every such line as trouble
        assertThat(run.output().lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")))
                .as(run.output()).singleElement().asString().contains("EMBEDDED SANDBOX IN USE");
    }

    @Test
    void the_webhook_receiver_answers_while_the_start_up_checks_still_wait_for_a_slow_provider() throws Exception {
        // Every provider request takes 20 s: the start-up checks (the account's limits) wait that long, and a
        // loaded machine's slow route start still has the receiver up well before (the test ends at its answer)
        try (SandboxProvider slow = product.startSandbox(SandboxConfig.defaults()
                .setLatency(DurationRange.of(Duration.ofSeconds(20), Duration.ofSeconds(20))))) {
            JarRun run = product.run();
            run.provider(slow.baseUrl());
            process = run.start();
            URI webhook = URI.create("http://127.0.0.1:" + run.webhookPort() + "/webhook");
            String body = "{\"event\":\"order.updated\",\"data\":{\"ref_id\":\"W-1\",\"status\":\"success\"}}";
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
            // the port opens a moment before the receiver's route runs: a webhook in that moment gets 404
            // (the start looks pending orders up within 5 s for that reason); the receiver must answer
            // while the checks still wait 20 s for the provider
            HttpResponse<String> answer = Poll.atMost(Duration.ofSeconds(60), () -> {
                try {
                    return http.send(HttpRequest.newBuilder(webhook).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                            HttpResponse.BodyHandlers.ofString());
                } catch (java.io.IOException notYetListening) {
                    return null;
                }
            }, a -> (a != null && a.statusCode() != 404) || !process.isAlive());
            String outputThen = run.output();
            assertThat(answer).as(run.output()).isNotNull();
            assertThat(answer.statusCode()).as("the first webhook the receiver answers; output:%n%s", outputThen).isEqualTo(200);
            assertThat(outputThen).as("the start-up checks were still waiting for the provider")
                    .doesNotContain("Rate budget:");
        }
    }

    @Test
    void the_jar_serves_the_sandbox_alone_and_says_where() throws Exception {
        int port = FreePorts.pick();
        process = product.killedAfter(new ProcessBuilder(BuiltJar.java(),
                "-jar", BuiltJar.path().toAbsolutePath().toString(), "sandbox", "--port", Integer.toString(port))
                .redirectErrorStream(true).start());
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).contains("listening on http://127.0.0.1:" + port).doesNotContain("s3cr3t");
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/v1/check-balance"))
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"api_key\":\"RSL-7F3A9C21\",\"sign\":\"b1311981041ec3bc83b44c13bc497703\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains("\"success\":true").contains("\"currency\":\"IDR\"");
    }

    @Test
    void a_provider_that_cannot_be_reached_ends_a_once_run_with_exit_1() throws Exception {
        JarRun run = product.run();
        run.provider("http://127.0.0.1:" + FreePorts.pick());
        run.env.put("TOPUP_HTTP_CONNECT_TIMEOUT", "500ms");
        run.drop("waiting.csv", "ref_id,product_sku,customer_no\nU-1,FF100,12345678\n");
        assertThat(run.runOnce(Duration.ofMinutes(1))).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("could not be reached");
        assertThat(run.inbox.resolve("waiting.csv")).as("nothing is lost: the file waits").exists();
        assertThat(List.of(run.output().split("\n"))).noneMatch(l -> l.startsWith("\tat "));
    }
}
