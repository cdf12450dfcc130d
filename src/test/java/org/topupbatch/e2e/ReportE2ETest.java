package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * Reports of the built jar: a daily file with a fixed name keeps every day's report, and
 * {@code report BATCH} writes any batch's report again from the journal with no provider running.
 */
class ReportE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(7L).setFailRate(0));
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    static String file(String... refIds) {
        return "ref_id,product_sku,customer_no,customer_no_zone\n"
                + Stream.of(refIds).map(r -> r + ",ML86,123456789,2345\n").collect(Collectors.joining());
    }

    int command(String... args) throws Exception {
        Process p = run.start(args);
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).as("report command ends").isTrue();
        return p.exitValue();
    }

    List<String> reports() throws Exception {
        try (Stream<Path> files = Files.list(run.reports)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void a_daily_file_keeps_every_day_report_and_any_can_be_written_again() throws Exception {
        run.drop("daily.csv", file("DAY1-1", "DAY1-2"));
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        Map<String, String> serials = sandbox.ledger().stream()
                .collect(Collectors.toMap(LedgerEntry::refId, e -> String.valueOf(e.serialNumber())));
        run.drop("daily.csv", file("DAY2-1"));
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();

        List<String> names = reports();
        assertThat(names).hasSize(4).contains("daily.result.csv", "daily.summary.json");
        String kept = names.stream().filter(n -> n.startsWith("daily.batch-") && n.endsWith(".result.csv")).findFirst().orElseThrow();
        String firstId = kept.substring("daily.batch-".length(), kept.indexOf('-', "daily.batch-".length()));
        Report first = Report.read(run.reports, kept.substring(0, kept.length() - ".result.csv".length()), ',');
        assertThat(first.rows()).extracting(r -> r.get("ref_id") + "=" + r.get("serial_number"))
                .containsExactly("DAY1-1=" + serials.get("DAY1-1"), "DAY1-2=" + serials.get("DAY1-2"));
        assertThat(first.summary().get("batch").asText()).isEqualTo(firstId);
        assertThat(Report.read(run.reports, "daily", ',').rows()).extracting(r -> r.get("ref_id")).containsExactly("DAY2-1");

        sandbox.close(); // the command does not need the provider
        Files.delete(run.reports.resolve(kept));
        assertThat(command("report", "daily.csv")).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("'daily.csv' names 2 batches");
        assertThat(command("report", firstId)).as(run.output()).isZero();
        assertThat(Report.read(run.reports, kept.substring(0, kept.length() - ".result.csv".length()), ',').rows())
                .extracting(r -> r.get("serial_number")).containsExactly(serials.get("DAY1-1"), serials.get("DAY1-2"));
        assertThat(command("report", "nightly")).isEqualTo(1);
        assertThat(run.output().strip()).isEqualTo("topup-batch: no batch 'nightly' in the journal; give a batch id"
                + " (first column of 'status', \"batch\" in summary.json) or the name of a file that was taken");
    }
}
