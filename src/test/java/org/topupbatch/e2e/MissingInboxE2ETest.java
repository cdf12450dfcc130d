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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * A mistyped inbox, on the built jar: a once run refuses with one line naming the folder and the
 * setting, exit 1, and makes no folder (before, it made the folder and reported success: a nightly
 * job ordering nothing, silently); a watch run says it once, is not ready with the reason on
 * /observe/health, and takes the batches once the folder appears.
 */
class MissingInboxE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(SandboxConfig::defaults);
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();
    final Path typo = home.resolve("srv").resolve("typo");

    @BeforeEach
    void start() {
        run.env.put("TOPUP_INBOX", typo.toString());
    }

    @Test
    void a_once_run_on_a_missing_inbox_fails_in_one_line_and_makes_no_folder() throws Exception {
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isEqualTo(1);
        String output = run.output();
        assertThat(output.lines().filter(l -> l.contains(typo.toString())).toList()).as(output)
                .singleElement().asString()
                .contains("topup-batch cannot start: the inbox " + typo + " takes no file: it does not exist")
                .contains("TOPUP_INBOX");
        assertThat(output).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(typo).doesNotExist();
        assertThat(typo.getParent()).doesNotExist();
    }

    @Test
    void a_file_where_the_inbox_should_be_fails_a_once_run_too() throws Exception {
        // (unreadable by permissions cannot be set up here: the suite may run as root, who reads anything)
        Files.createDirectories(typo.getParent());
        Files.writeString(typo, "not a folder");
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("topup-batch cannot start: the inbox " + typo + " takes no file: it is not a folder")
                .doesNotContain("\tat ");
    }

    @Test
    void a_watch_run_is_not_ready_until_the_inbox_appears_then_takes_its_batch() throws Exception {
        run.env.put("TOPUP_MODE", "watch");
        run.start();
        HttpClient http = HttpClient.newHttpClient();
        URI health = URI.create("http://127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT")
                + "/observe/health?data=true");
        HttpResponse<String> down = Poll.until("health naming the missing inbox", Duration.ofSeconds(90),
                () -> get(http, health), r -> r != null && inboxCheck(r.body()) != null, run::output);
        assertThat(down.statusCode()).isEqualTo(503);
        JsonNode check = inboxCheck(down.body());
        assertThat(check.path("status").asText()).isEqualTo("DOWN");
        assertThat(check.path("data").path("inbox").asText()).isEqualTo(typo.toString());
        assertThat(check.path("message").asText()).contains("takes no file: it does not exist").contains("TOPUP_INBOX");
        StartupRefusalE2ETest.awaitOutput(run, "takes no file: it does not exist");
        assertThat(typo).as("a watch run does not make the folder either").doesNotExist();

        Files.createDirectories(typo);
        Path staged = home.resolve("late.csv.part");
        Files.writeString(staged, "ref_id,product_sku,customer_no\nMI-1,STEAM45K,a@example.com\n");
        Files.move(staged, typo.resolve("late.csv"));
        Poll.until("health UP once the inbox is there", Duration.ofSeconds(60),
                () -> get(http, health), r -> r != null && r.statusCode() == 200, run::output);
        Poll.until("the late batch reported", Duration.ofSeconds(120),
                () -> Files.exists(run.reports.resolve("late.summary.json")), Boolean.TRUE::equals, run::output);
        assertThat(Report.read(run.reports, "late", ',').rows()).extracting(row -> row.get("ref_id")).containsExactly("MI-1");
        assertThat(run.output().lines().filter(l -> l.contains("takes no file")).count())
                .as("said once, not at every look").isEqualTo(1);
        assertThat(run.output()).doesNotContain("\tat ");
    }

    /** The inbox's readiness check in /observe/health's answer, or null. */
    private static JsonNode inboxCheck(String body) {
        try {
            for (JsonNode check : new ObjectMapper().readTree(body).path("checks")) {
                if (check.path("name").asText().equals("inbox")) {
                    return check;
                }
            }
            return null;
        } catch (java.io.IOException e) {
            throw new AssertionError("/observe/health answered no JSON: " + body, e);
        }
    }

    /** Null while the management server is not listening yet. */
    private static HttpResponse<String> get(HttpClient http, URI uri) throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException notYet) {
            return null;
        }
    }
}
