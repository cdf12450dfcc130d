package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.LedgerEntry;

/** report.yaml: once every order of a batch is final, NAME.result.csv and NAME.summary.json are written. */
class ReportRouteTest extends RouteTestSupport {

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "report");
    }

    @Test
    void a_finished_batch_gets_its_result_csv_and_summary_json() throws Exception {
        drop("nightly.csv", """
                ref_id;product_sku;customer_no;customer_no_zone;order_no
                RP-0001;ML86;123456789;2345;SO-1
                RP-0002;NOPE1;123456;;SO-2
                RP-0003;ML86;123456780;2345;SO-3
                """);
        Path summaryFile = settings.reports().resolve("nightly.summary.json");
        Path resultFile = settings.reports().resolve("nightly.result.csv");

        Poll.until("nightly.summary.json is written", WAIT, () -> Files.exists(summaryFile));

        assertThat(list(settings.reports())).containsExactly(resultFile, summaryFile);
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
        assertThat(batch("nightly.csv").orElseThrow().reportComplete()).isTrue();
    }
}
