package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.testing.Poll;

/** report.yaml: once every order of a batch is final, NAME.result.csv and NAME.summary.json are written. */
class ReportRouteTest extends RouteTestSupport {

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "submit-order", "mark-sending", "report");
    }

    @Test
    void a_finished_batch_gets_its_result_csv_and_summary_json() throws Exception {
        drop("nightly.csv", """
                ref_id;product_sku;customer_no;customer_no_zone;order_no
                RP-0001;ML86;123456789;2345;SO-1
                RP-0002;NOPE1;123456;;SO-2
                RP-0003;ML86;123456780;2345;SO-3
                """);
        Path summaryFile = settings.folders().reports().resolve("nightly.summary.json");
        Path resultFile = settings.folders().reports().resolve("nightly.result.csv");

        Poll.until("nightly.summary.json is written", WAIT, () -> Files.exists(summaryFile));

        assertThat(list(settings.folders().reports())).containsExactly(resultFile, summaryFile);
        long charged = sandbox.ledger().stream().mapToLong(LedgerEntry::price).sum();
        JsonNode summary = new ObjectMapper().readTree(summaryFile.toFile());
        assertThat(summary.path("file").asText()).isEqualTo("nightly.csv");
        assertThat(summary.path("rows").asInt()).isEqualTo(3);
        assertThat(summary.path("submitted").asInt()).isEqualTo(2);
        assertThat(summary.path("success").asInt()).isEqualTo(2);
        assertThat(summary.path("rejected").asInt()).isEqualTo(1);
        assertThat(summary.path("pending").asInt()).isZero();
        assertThat(summary.path("charged").asLong()).isEqualTo(charged).isPositive();
        assertThat(summary.path("balance_after").asLong()).isEqualTo(sandbox.balance());

        List<String> result = Files.readAllLines(resultFile);
        assertThat(result).hasSize(4);
        assertThat(result.get(0)).startsWith("line;ref_id;product_sku;").endsWith(";order_no");
        assertThat(result.get(1)).startsWith("2;RP-0001;ML86;").contains(";success;").endsWith(";SO-1");
        assertThat(result.get(2)).startsWith("3;RP-0002;NOPE1;").contains(";rejected;").endsWith(";SO-2");
        assertThat(result.get(3)).startsWith("4;RP-0003;ML86;").contains(";success;").endsWith(";SO-3");
        // the journal records the report after its files are in place (a crash between them writes them
        // again): the mark follows the summary file, it is not there with it
        Poll.until("nightly.csv is marked reported in the journal", WAIT,
                () -> batch("nightly.csv").orElseThrow().reportComplete());
    }

    @Test
    void a_second_file_of_the_same_name_keeps_the_first_batch_report_and_balances_are_true() throws Exception {
        drop("daily.csv", "ref_id,product_sku,customer_no,customer_no_zone\nDY-0001,ML86,123456789,2345\n");
        Path summaryFile = settings.folders().reports().resolve("daily.summary.json");
        Poll.until("the first daily.csv is reported", WAIT, () -> Files.exists(summaryFile));
        long firstBatch = batch("daily.csv").orElseThrow().id();
        String firstSerial = row("daily.csv", "DY-0001").serialNumber();
        long balanceAfterFirst = sandbox.balance();

        // the same name again: one new order, and the first row again (rejected: already submitted)
        drop("daily.csv", "ref_id,product_sku,customer_no,customer_no_zone\nDY-0002,ML86,123456780,2345\nDY-0001,ML86,123456789,2345\n");
        Poll.until("the second daily.csv is reported", WAIT, () -> batch("daily.csv").orElseThrow().id() != firstBatch
                && batch("daily.csv").orElseThrow().reportComplete());
        String secondSerial = row("daily.csv", "DY-0002").serialNumber();

        String kept = "daily.batch-" + firstBatch + "-" + stamp(journal().reporting().batch(firstBatch).orElseThrow().startedAt());
        assertThat(list(settings.folders().reports())).extracting(p -> p.getFileName().toString()).containsExactly(
                kept + ".result.csv", kept + ".summary.json", "daily.result.csv", "daily.summary.json");
        assertThat(Files.readString(settings.folders().reports().resolve(kept + ".result.csv"))).contains("DY-0001", firstSerial)
                .doesNotContain("DY-0002");
        assertThat(Files.readString(settings.folders().reports().resolve("daily.result.csv")))
                .contains("DY-0002", secondSerial, "DY-0001");
        JsonNode first = new ObjectMapper().readTree(settings.folders().reports().resolve(kept + ".summary.json").toFile());
        JsonNode second = new ObjectMapper().readTree(summaryFile.toFile());
        assertThat(first.path("batch").asLong()).isEqualTo(firstBatch);
        assertThat(first.path("provider").asText()).isEqualTo("127.0.0.1");
        assertThat(second.path("balance_before").asLong()).isEqualTo(balanceAfterFirst);
        assertThat(second.path("balance_after").asLong()).isEqualTo(sandbox.balance());

        // a file whose every row is rejected: nothing submitted, balances still those the account had
        drop("again.csv", "ref_id,product_sku,customer_no,customer_no_zone\nDY-0001,ML86,123456789,2345\n");
        Path againFile = settings.folders().reports().resolve("again.summary.json");
        Poll.until("again.csv is reported", WAIT, () -> Files.exists(againFile));
        JsonNode again = new ObjectMapper().readTree(againFile.toFile());
        assertThat(again.path("submitted").asInt()).isZero();
        assertThat(again.path("balance_before").isNumber()).isTrue();
        assertThat(again.path("balance_before").asLong()).isEqualTo(sandbox.balance());
        assertThat(again.path("balance_after").asLong()).isEqualTo(sandbox.balance());
    }

    /** The kept-report time stamp, as docs/batch-files-and-reports.md#report documents it: the batch's start, UTC. */
    static String stamp(Instant at) {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(at);
    }
}
