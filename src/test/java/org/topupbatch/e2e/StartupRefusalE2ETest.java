package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.Poll;

/**
 * Start-up fails closed: whatever the run cannot have (a provider half configured, the webhook
 * port, the reports folder, the journal) stops it with exit 1 and one line naming the setting,
 * and no stack trace.
 */
class StartupRefusalE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    final JarRun run = product.run();
    JarRun other;

    @BeforeEach
    void setUp() throws Exception {
        run.drop("waiting.csv", "ref_id,product_sku,customer_no\nU-1,FF100,12345678\n");
    }

    @Test
    void a_base_url_without_credentials_stops_start_up_saying_what_is_missing() throws Exception {
        run.env.put("TOPUP_BASE_URL", "https://provider.example");
        assertRefused("topup-batch: bad setting: topup.base-url is set but topup.api-key and topup.api-secret are not "
                + "(set TOPUP_API_KEY and TOPUP_API_SECRET)");
    }

    @Test
    void credentials_without_a_base_url_never_fall_back_to_the_sandbox() throws Exception {
        run.env.put("TOPUP_API_KEY", "RSL-OWN");
        run.env.put("TOPUP_API_SECRET", "own-secret");
        assertRefused("topup.api-key and topup.api-secret are set but topup.base-url is not (set TOPUP_BASE_URL)");
        assertThat(run.output()).doesNotContain("own-secret").doesNotContainIgnoringCase("sandbox provider listening");
    }

    @Test
    void a_webhook_port_in_use_stops_start_up() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            run.env.put("TOPUP_WEBHOOK_PORT", Integer.toString(taken.getLocalPort()));
            assertRefused("topup-batch cannot start: topup.webhook.port " + taken.getLocalPort()
                    + " is already in use (another process listens there; set TOPUP_WEBHOOK_PORT or 0 to turn webhooks off)");
        }
    }

    @Test
    void a_reports_folder_that_cannot_be_written_stops_start_up() throws Exception {
        // a file where the folder should be: refused even for root, who may write anywhere else
        Path file = Files.writeString(home.resolve("not-a-folder"), "x");
        run.env.put("TOPUP_REPORTS", file.resolve("reports").toString());
        assertRefused("topup-batch cannot start: topup.reports " + file.resolve("reports") + " cannot be written");
    }

    @Test
    void a_journal_that_cannot_be_opened_stops_start_up() throws Exception {
        Path file = Files.writeString(home.resolve("not-a-folder"), "x");
        run.env.put("TOPUP_DATA", file.resolve("data").toString());
        assertRefused("topup-batch cannot start: topup.data " + file.resolve("data") + ": cannot open the journal database");
    }

    @Test
    void a_second_instance_on_the_same_journal_is_refused() throws Exception {
        run.start();
        awaitOutput(run, "Rate budget:");
        other = product.node("second");
        other.env.put("TOPUP_DATA", run.data.toString());
        int code = other.runOnce(Duration.ofMinutes(1));
        assertThat(code).as(other.output()).isEqualTo(1);
        assertThat(other.output()).contains("topup-batch cannot start: another topup-batch instance is active on journal jdbc:h2:file:"
                + run.data.toAbsolutePath().resolve("journal").resolve("journal") + "; only one may submit");
        assertNoStackTrace(other.output());
    }

    private void assertRefused(String line) throws Exception {
        assertThat(run.runOnce(Duration.ofMinutes(1))).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains(line);
        assertNoStackTrace(run.output());
        assertThat(run.inbox.resolve("waiting.csv")).as("nothing is lost: the file waits").exists();
    }

    static void assertNoStackTrace(String output) {
        assertThat(List.of(output.split("\n"))).as(output).noneMatch(l -> l.startsWith("\tat ") || l.startsWith("Caused by"));
    }

    static void awaitOutput(JarRun run, String text) {
        String output = Poll.atMost(Duration.ofSeconds(60), run::output, o -> o.contains(text));
        if (!output.contains(text)) {
            throw new AssertionError("the run never said '" + text + "'; its output:\n" + output);
        }
    }
}
