package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.BuiltJar;

/**
 * A tester's finding (issue 23): 300 rows, each with a 900 KB extra column (a 270 MB file). Every
 * row is over the row size limit (64 Ki characters): each is rejected, the rest of the file is
 * read, and memory stays flat: {@code plan} and a once-mode run both finish with a 256 MiB heap.
 */
class HugeFieldsE2ETest {

    static final int ROWS = 300;
    static final int EXTRA_BYTES = 900 * 1024;
    static final String HEAP = "-Xmx256m";

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(5L).setFailRate(0))
            .sendingWebhooks();
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();
    Process process;

    @Test
    void rows_with_900_kb_extra_columns_are_rejected_one_by_one_in_a_256_mib_heap() throws Exception {
        Path file = writeHugeFile(home.resolve("huge.csv"));
        assertThat(Files.size(file)).isGreaterThan((long) ROWS * EXTRA_BYTES);

        Path planLog = home.resolve("plan.log");
        long started = System.nanoTime();
        int planExit = jar(planLog, Duration.ofMinutes(3), "plan", file.toString());
        long planMillis = (System.nanoTime() - started) / 1_000_000;
        String plan = Files.readString(planLog, StandardCharsets.UTF_8);
        System.out.printf("plan of %d rows of %d KB (%d MB) with %s: exit %d in %d ms%n", ROWS, EXTRA_BYTES / 1024,
                Files.size(file) >> 20, HEAP, planExit, planMillis);
        assertThat(planExit).as(tail(plan)).isEqualTo(2);
        assertThat(plan).as(tail(plan)).contains("Rows:     " + ROWS + " read, 0 acceptable, " + ROWS + " rejected");
        assertThat(plan.lines().filter(l -> l.startsWith("  rejected  line ") && l.contains("longer than")).count())
                .as(tail(plan)).isEqualTo(ROWS);
        assertThat(plan.lines().mapToInt(String::length).max().orElse(0)).as("no line carries the huge values")
                .isLessThan(2_000);
        StartupRefusalE2ETest.assertNoStackTrace(plan);

        Files.move(file, run.inbox.resolve("huge.csv"));
        run.env.put("TOPUP_MODE", "once");
        Path onceLog = home.resolve("once.log");
        started = System.nanoTime();
        int onceExit = jar(onceLog, Duration.ofMinutes(4));
        String once = Files.readString(onceLog, StandardCharsets.UTF_8);
        System.out.printf("once run with %s: exit %d in %d ms%n", HEAP, onceExit, (System.nanoTime() - started) / 1_000_000);
        assertThat(onceExit).as(tail(once)).isZero();
        Report report = Report.read(run.reports, "huge", ',');
        assertThat(report.summary().get("rows").asInt()).as(report.summary().toString()).isEqualTo(ROWS);
        assertThat(report.summary().get("rejected").asInt()).as(report.summary().toString()).isEqualTo(ROWS);
        assertThat(report.rows()).hasSize(ROWS).allSatisfy(r -> assertThat(r.get("message")).contains("longer than"));
        assertThat(sandbox.ledger()).as("nothing ordered").isEmpty();
        StartupRefusalE2ETest.assertNoStackTrace(once);
        assertThat(once).doesNotContain("OutOfMemoryError");
    }

    /** ref_id,product_sku,customer_no,note: valid rows but for a note of 900 KB each. */
    static Path writeHugeFile(Path file) throws IOException {
        byte[] note = new byte[EXTRA_BYTES];
        Arrays.fill(note, (byte) 'n');
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            out.write("ref_id,product_sku,customer_no,note\n".getBytes(StandardCharsets.US_ASCII));
            for (int i = 1; i <= ROWS; i++) {
                out.write(("H-" + i + ",FF100," + (12_345_000 + i) + ",").getBytes(StandardCharsets.US_ASCII));
                out.write(note);
                out.write('\n');
            }
        }
        return file;
    }

    /** Runs the built jar with a small heap and the run's settings; its output to {@code log}. */
    private int jar(Path log, Duration limit, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(BuiltJar.java(),
                HEAP, "-XX:+ExitOnOutOfMemoryError", "-jar", BuiltJar.path().toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(run.env);
        process = product.killedAfter(pb.start());
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("java " + HEAP + " -jar ... " + String.join(" ", args) + " did not end within " + limit
                    + ":\n" + tail(Files.readString(log, StandardCharsets.UTF_8)));
        }
        return process.exitValue();
    }

    /** The last 40 lines, each cut at 300 characters: the output of a failed run may carry the huge values. */
    static String tail(String output) {
        List<String> lines = output.lines().map(l -> l.length() > 300 ? l.substring(0, 300) + "... (" + l.length()
                + " characters)" : l).toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
