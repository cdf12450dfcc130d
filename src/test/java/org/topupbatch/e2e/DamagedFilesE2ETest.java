package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.intake.FileMutator;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * Issue 23 through the service's own intake (InputFuzzTest goes through {@code plan}): the tester's
 * damaged files and 20 files of the same seeded damage as the fuzz campaign, all in one inbox, one
 * once-mode run. It ends 0; every file gets its summary (a report, or the one-line reason it could
 * not be read); the run's log has no stack trace and no raw control character (values escaped);
 * the cut-short row is rejected as such and a ref_id with a line break comes back in the report as
 * written. Seed: {@code -Dfuzz.seed=N}.
 */
class DamagedFilesE2ETest {

    static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
    static final int FUZZED = 20;

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(11L).setFailRate(0)
            .setSettleDelay(DurationRange.of(Duration.ofMillis(100), Duration.ofMillis(500)))).sendingWebhooks();
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    @Test
    void the_intake_takes_every_damaged_file_with_a_summary_a_clean_log_and_exit_0() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        String names = "ref_id,product_sku,customer_no,customer_name\r\nW-1,FF100,12345678,José\r\nW-2,ML86,123456789 (2345),Ñandú\r\n";
        files.put("jose-1252", names.getBytes(WINDOWS_1252));
        files.put("names-utf16be", ("\uFEFF" + names.replace("W-", "U-").replace(',', '\t')).getBytes(StandardCharsets.UTF_16BE));
        files.put("cut-short", ("ref_id,product_sku,customer_no,customer_no_zone,max_price,order_no,customer_name,note\n"
                + "C-1,FF100,12345670,,,SO-1,Agus,\nC-2,SMART10,0881123456").getBytes(StandardCharsets.UTF_8));
        files.put("ref-with-break", "ref_id,product_sku,customer_no\n\"TB-1\nX\",FF100,12345671\n".getBytes(StandardCharsets.UTF_8));
        files.put("escapes", ("ref_id,product_sku,customer_no,note\nE-1,FF100,1234\u001B[2J5672,a\nE\u001B[2J-2,FF100,12345673,b\n"
                + "E-3,FF\u001B[31m100,12345674,c\nE-4,FF100,12345675,\u001B[2J in an extra column\n").getBytes(StandardCharsets.UTF_8));
        files.put("blank-lines-first", ("\n".repeat(66_000) + "ref_id,product_sku,customer_no\nB-1,FF100,12345676\n")
                .getBytes(StandardCharsets.UTF_8));
        files.put("semicolons-above", ";;;;;;;\r\nref_id,product_sku,customer_no\r\nS-1,FF100,12345677\r\n".getBytes(StandardCharsets.UTF_8));
        files.put("long-row", ("ref_id,product_sku,customer_no,note\nL-1,FF100,12345678,short\nL-2,FF100,12345679," + "n".repeat(100_000)
                + "\nL-3,ML86,123456789 (2345),after\n").getBytes(StandardCharsets.UTF_8));
        // file names are outside input too: status and the log show them
        files.put("esc-\u001B[31mred", "ref_id,product_sku,customer_no\nN-1,FF100,12345680\n".getBytes(StandardCharsets.UTF_8));
        files.put("line\nbreak", "ref_id,product_sku,customer_no\nN-2,FF100,12345681\n".getBytes(StandardCharsets.UTF_8));
        long seed = Long.getLong("fuzz.seed", 20261124L);
        byte[] sample = org.topupbatch.testing.SampleBatch.bytes();
        List<String> damage = new ArrayList<>();
        for (int i = 0; i < FUZZED; i++) {
            FileMutator mutator = new FileMutator(seed * 7_919L + i);
            files.put("fuzz-" + i, mutator.mutate(sample));
            damage.add("fuzz-" + i + " " + mutator.done());
        }
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            run.drop(file.getKey() + ".csv", file.getValue());
        }

        int exit = run.runOnce(Duration.ofMinutes(4));
        String log = run.output();
        System.out.println(files.size() + " files, exit " + exit + "; the run's intake lines:");
        log.lines().filter(l -> l.contains("BatchIntake") || l.contains("RunMonitor")).map(DamagedFilesE2ETest::visible)
                .forEach(System.out::println);
        assertThat(exit).as(tail(log)).isZero();
        for (String name : files.keySet()) {
            assertThat(run.reports.resolve(name + ".summary.json")).as(name + ": " + damage).exists();
        }
        StartupRefusalE2ETest.assertNoStackTrace(log);
        assertThat(log).as(tail(log)).doesNotContain("Exception");
        for (String line : log.split("\n")) {
            int bad = rawControl(line);
            assertThat(bad).as("a raw control character in the log: %s", visible(line)).isNegative();
        }

        assertThat(product.command("status")).as(product.commandOutput()).isZero();
        String status = product.commandOutput();
        assertThat(status).as(status).contains("esc-\\u001B[31mred.csv").contains("line\\nbreak.csv");
        for (String line : status.split("\n")) {
            assertThat(rawControl(line)).as("a raw control character in status: %s", visible(line)).isNegative();
        }

        Report cut = Report.read(run.reports, "cut-short", ',');
        assertThat(cut.byLine(2).get("status")).isEqualTo("success");
        assertThat(cut.byLine(3).get("status")).isEqualTo("rejected");
        assertThat(cut.byLine(3).get("message")).contains("cut short");
        Report broken = Report.read(run.reports, "ref-with-break", ',');
        assertThat(broken.rows()).singleElement().satisfies(r -> {
            assertThat(r.get("ref_id")).isEqualTo("TB-1\nX");
            assertThat(r.get("status")).isEqualTo("rejected");
        });
        assertThat(Report.read(run.reports, "semicolons-above", ',').count("success")).isEqualTo(1);
        assertThat(Report.read(run.reports, "blank-lines-first", ',').byLine(66_002).get("status")).isEqualTo("success");
        Report longRow = Report.read(run.reports, "long-row", ',');
        assertThat(longRow.byLine(3).get("message")).contains("longer than");
        assertThat(longRow.count("success")).isEqualTo(2);
    }

    /** A character a terminal acts on, but the line's end: C0 controls, DEL, C1 controls, U+2028/2029; -1 when none. */
    static int rawControl(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if ((c < 0x20 && !(c == '\r' && i == line.length() - 1)) || (c >= 0x7F && c <= 0x9F) || c == '\u2028' || c == '\u2029') {
                return i;
            }
        }
        return -1;
    }

    static String visible(String line) {
        StringBuilder b = new StringBuilder();
        line.chars().limit(400).forEach(c -> b.append(c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029
                ? String.format("<U+%04X>", c) : String.valueOf((char) c)));
        return b.toString();
    }

    static String tail(String output) {
        List<String> lines = output.lines().map(l -> l.length() > 300 ? l.substring(0, 300) + "... (" + l.length()
                + " characters)" : l).toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
}
