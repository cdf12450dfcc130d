package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * No file can stop a once run: a file whose intake throws (here the OutOfMemoryError of the
 * test-only failure point {@code intake-read}, as a tester's file did) is tried 3 times, then set
 * aside into {@code data/error/} with a note and a summary naming the cause; the other file of the
 * inbox is processed, and the run ends by itself with exit 2 instead of taking the file again forever.
 */
class IntakeSetAsideE2ETest {

    static final String POISON = "ref_id,product_sku,customer_no\nP-1,FF100,12345678\n";
    static final String GOOD = "ref_id,product_sku,customer_no\nG-1,FF100,12345678\n";

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(SandboxConfig::defaults).sendingWebhooks();
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    @Test
    void a_file_whose_intake_keeps_failing_is_set_aside_the_inbox_goes_on_and_once_ends_with_exit_2() throws Exception {
        run.jvm.add("-Dtopup.internal.fail-at=intake-read:a-poison.csv");
        byte[] poison = POISON.getBytes(StandardCharsets.UTF_8);
        run.drop("a-poison.csv", poison);
        run.drop("b-good.csv", GOOD);

        long started = System.nanoTime();
        // about 10 s (a JVM start, 3 polls a second apart, one order); a run that takes the file again
        // and again never ends and fails here
        int exit = run.runOnce(Duration.ofSeconds(60));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        String output = run.output();

        assertThat(exit).as(output).isEqualTo(2);
        assertThat(output.lines().filter(l -> l.contains("Batch a-poison.csv: intake failed, attempt")))
                .as(output)
                .satisfiesExactly(
                        l -> assertThat(l).contains("WARN").contains("attempt 1 of 3").contains("OutOfMemoryError"),
                        l -> assertThat(l).contains("WARN").contains("attempt 2 of 3").contains("OutOfMemoryError"),
                        l -> assertThat(l).contains("WARN").contains("attempt 3 of 3").contains("set aside as"));
        assertThat(output).contains("Run ends (exit 2): 1 file was set aside");
        try (Stream<Path> left = Files.list(run.inbox)) {
            assertThat(left).as("nothing left in the inbox").isEmpty();
        }

        List<Path> aside;
        try (Stream<Path> files = Files.list(run.data.resolve("error"))) {
            aside = files.sorted().toList();
        }
        assertThat(aside).hasSize(2);
        Path setAside = aside.get(0);
        assertThat(setAside.getFileName().toString()).matches("a-poison\\.\\d{8}-\\d{6}\\.[0-9a-f]{12}\\.csv");
        assertThat(setAside).hasBinaryContent(poison);
        assertThat(aside.get(1)).hasFileName(setAside.getFileName() + ".txt");
        assertThat(Files.readString(aside.get(1)))
                .contains("a-poison.csv was set aside by topup-batch at ")
                .contains("failed 3 times")
                .contains("Cause: OutOfMemoryError: Java heap space")
                .contains("back into the inbox as a-poison.csv");

        Report poisoned = Report.read(run.reports, "a-poison", ',');
        assertThat(poisoned.summary().get("rows").asLong()).isZero();
        assertThat(poisoned.summary().get("error").asText())
                .startsWith("intake failed 3 times, the file is set aside for the operator: OutOfMemoryError");
        assertThat(run.reports.resolve("a-poison.result.csv")).doesNotExist();

        Report good = Report.read(run.reports, "b-good", ',');
        assertThat(good.rows()).singleElement().satisfies(r -> assertThat(r.get("status")).isEqualTo("success"));
        assertThat(sandbox.ledger()).extracting(LedgerEntry::refId).containsExactly("G-1");
        System.out.println("IntakeSetAsideE2ETest: the once run took " + took.toMillis() + " ms");
    }
}
