package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.BoundedProcess;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.SampleBatch;
import org.topupbatch.testing.TestedBlocks;

/**
 * The first command of docs/getting-started.md (and README), run as printed (issue 36): in a fresh
 * folder holding the sample batch in {@code inbox/} and the built jar in {@code target/}, its
 * {@code java} part runs the sample on the embedded sandbox, exits 0 and writes the report the page
 * shows. Its {@code mvn -q -DskipTests package} part is the build that made the jar this test runs,
 * so it is compared, not run again. The ports are moved off the shared defaults by environment
 * variables only: the command line is the page's.
 */
class GettingStartedCommandsE2ETest {

    static final String SAMPLE = "orders-2026-11-21.csv";

    @TempDir
    Path home;

    @Test
    void the_first_command_runs_the_sample_batch_on_the_embedded_sandbox_as_printed() throws Exception {
        List<String> blocks = TestedBlocks.of("docs/getting-started.md", "getting-started");
        assertThat(blocks).as("blocks marked tested: getting-started").hasSize(1);
        String[] parts = blocks.get(0).strip().split(" && ");
        assertThat(parts).as(blocks.get(0)).hasSize(2);
        assertThat(parts[0]).as("the build part of the first command").isEqualTo("mvn -q -DskipTests package");
        assertThat(Files.readString(Path.of("README.md"))).as("README shows the same first command")
                .contains("```\n" + blocks.get(0) + "```");

        Files.createDirectories(home.resolve("inbox"));
        Files.write(home.resolve("inbox").resolve(SAMPLE), SampleBatch.bytes());
        Files.createDirectories(home.resolve("target"));
        Files.createSymbolicLink(home.resolve("target/topup-batch.jar"), BuiltJar.path().toAbsolutePath());
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", parts[1]).directory(home.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
        pb.environment().put("TOPUP_WEBHOOK_PORT", Integer.toString(FreePorts.pick()));
        pb.environment().put("TOPUP_MANAGEMENT_PORT", Integer.toString(FreePorts.pick()));
        BoundedProcess.Result run = BoundedProcess.run(pb, Duration.ofMinutes(3));

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("EMBEDDED SANDBOX IN USE: no real order will be placed")
                .contains("Batch " + SAMPLE + ": 21 rows, 14 accepted (323095 IDR), 7 rejected; read as UTF-8")
                .contains("Run ends (exit 0): every batch is processed and every order is final");
        JsonNode summary = new ObjectMapper().readTree(home.resolve("reports/orders-2026-11-21.summary.json").toFile());
        assertThat(summary.get("rows").asInt()).isEqualTo(21);
        assertThat(summary.get("submitted").asInt()).isEqualTo(14);
        assertThat(summary.get("rejected").asInt()).isEqualTo(7);
        assertThat(summary.get("provider").asText()).isEqualTo("sandbox");
        assertThat(home.resolve("reports/orders-2026-11-21.result.csv")).exists();
        assertThat(home.resolve("inbox").resolve(SAMPLE)).as("the sample left inbox/ for data/archive/").doesNotExist();
    }
}
