package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.LostAnswerMode;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * The built jar, run as its own process in once mode, against a sandbox provider living in this
 * test's JVM; every report row is compared with the sandbox's ledger. The main flow runs on both
 * journal databases (PostgreSQL: one embedded server for the class, started on first use).
 */
class BatchFlowE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults()
            .setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(1500))).setSeed(42L)).sendingWebhooks();
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    /**
     * Semicolons, BOM, CRLF, quoted line breaks and delimiters, extra columns, every rejection reason,
     * and customers written as real exports write them (international numbers, server names, zones).
     */
    static final String SPREADSHEET_FILE = String.join("\r\n",
            " Ref_ID ;Product_SKU;customer_no;CUSTOMER_NO_ZONE;max_price;order_no;note",
            "S-0001;ML86;123456789;2345;;SO-1;plain instant success",
            "S-0002;GI60;812345678;asia;;SO-2;\"async; settles\r\nto success\"",
            "S-0003;XL10;081712340000;;;SO-3;async, settles to failed (refunded)",
            "S-0004;ML86;55550000;1234;;SO-4;instant failed at creation",
            "S-0005;;123456789;2345;;SO-5;missing sku",
            "S-0006-this-ref-id-is-far-too-long-to-be-accepted-by-anyone;ML86;123456789;2345;;SO-6;long ref",
            "S 0007;ML86;123456789;2345;;SO-7;bad characters",
            "S-0001;FF100;12345678;;;SO-8;repeats S-0001",
            "S-0009;NOPE;12345678;;;SO-9;unknown sku",
            "S-0010;FF2180;12345678;;;SO-10;unavailable",
            "S-0011;ML86;123456789;;;SO-11;zone missing",
            "S-0012;VAL475;NoTag;;;SO-12;not Name#TAG",
            "S-0013;TSEL10;8.1234E+10;;;SO-13;a phone number a spreadsheet wrote in scientific notation",
            "S-0014;ML706;123456789;2345;1000;SO-14;too dear",
            "S-0015;STEAM45K;\"someone@example.com\";;;SO-15;\"=HYPERLINK(\"\"http://x\"\")\"",
            "",
            "S-0016;VAL475;Budi#ID01;;60000;SO-16;\"quote \"\"inside\"\" and ; delimiter\"",
            "S-0017;TSEL10;+6281234567890;;;SO-17;international form",
            "S-0018;ISAT10;6285612345678;;;SO-18;international form without +",
            "S-0019;GI60;812345678;os_asia;;SO-19;the game's server name",
            "S-0020;GI60;612345678;America;;SO-20;the server as players write it",
            "S-0021;ML86;123456789 (2345);;;SO-21;zone written inside customer_no",
            "S-0022;FF100;12345678;2345;;SO-22;a zone the product does not use",
            "");

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void a_spreadsheet_file_with_every_kind_of_row_is_reported_exactly_as_the_provider_booked_it(JournalDatabase journal)
            throws Exception {
        product.journalOn(journal);
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] body = SPREADSHEET_FILE.getBytes(StandardCharsets.UTF_8);
        byte[] file = new byte[bom.length + body.length];
        System.arraycopy(bom, 0, file, 0, bom.length);
        System.arraycopy(body, 0, file, bom.length, body.length);
        run.drop("shop-export.csv", file);
        long balanceAtStart = sandbox.balance();

        int exit = run.runOnce(Duration.ofMinutes(2));

        assertThat(exit).as(run.output()).isZero();
        Report report = Report.read(run.reports, "shop-export", ';');
        // the report goes back as the file came: UTF-8 with a byte-order mark
        assertThat(Files.readAllBytes(run.reports.resolve("shop-export.result.csv"))).startsWith(bom);
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(report.header()).containsExactly("line", "ref_id", "product_sku", "customer_no", "customer_no_zone",
                "status", "serial_number", "price", "message", "order_no", "note");
        Map<String, String> statuses = report.rows().stream()
                .collect(Collectors.toMap(r -> r.get("line"), r -> r.get("status")));
        assertThat(statuses).containsEntry("2", "success").containsEntry("3", "success")
                .containsEntry("5", "failed").containsEntry("6", "failed") // line 4's quoted break: S-0003 is on line 5
                .containsEntry("19", "success");
        for (int line = 20; line <= 25; line++) {
            assertThat(report.byLine(line).get("status")).as("written as real exports write it: line " + line)
                    .isEqualTo("success");
        }
        assertThat(report.byLine(15).get("message")).contains("scientific notation");
        Map<String, LedgerEntry> booked = sandbox.ledger().stream()
                .collect(Collectors.toMap(LedgerEntry::refId, e -> e));
        assertThat(booked.get("S-0017").customerNo()).as("sent as written").isEqualTo("+6281234567890");
        assertThat(booked.get("S-0021").customerNo()).as("sent as written").isEqualTo("123456789 (2345)");
        assertThat(booked.get("S-0022").customerNoZone()).as("sent as written").isEqualTo("2345");
        assertThat(report.byLine(5).get("price")).isNotEmpty(); // a failed order's price is the refunded price
        for (int line = 7; line <= 16; line++) {
            assertThat(report.byLine(line).get("status")).as("line " + line).isEqualTo("rejected");
        }
        assertThat(report.byLine(10).get("message")).containsIgnoringCase("S-0001");
        assertThat(report.byLine(3).get("note")).isEqualTo("async; settles\r\nto success");
        assertThat(report.byLine(17).get("note")).startsWith("'=HYPERLINK");
        assertThat(report.byLine(19).get("note")).isEqualTo("quote \"inside\" and ; delimiter");
        var summary = report.summary();
        assertThat(summary.get("file").asText()).isEqualTo("shop-export.csv");
        assertThat(summary.get("balance_before").asLong()).isEqualTo(balanceAtStart);
        assertThat(summary.get("balance_after").asLong()).isEqualTo(sandbox.balance())
                .isEqualTo(balanceAtStart - summary.get("charged").asLong());
        assertThat(Files.list(run.inbox)).isEmpty();
        assertThat(run.rowsJournaledFor("shop-export.csv")).isEqualTo(journal == JournalDatabase.POSTGRESQL ? report.rows().size() : 0);
    }

    static String plainFile(String prefix, int rows) {
        String[][] products = {
            {"FF100", "12345678", ""}, {"ML86", "123456789", "2345"}, {"TSEL10", "081234567890", ""},
            {"GI60", "812345678", "asia"}, {"STEAM45K", "gamer@example.com", ""}, {"PUBG60", "5123456789", ""},
            {"XL10", "081712345678", ""}, {"GP20K", "buyer@example.com", ""}, {"TRI10", "089612340000", ""},
        };
        StringBuilder sb = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone,erp_id\n");
        for (int i = 1; i <= rows; i++) {
            String[] p = products[i % products.length];
            sb.append(prefix).append(String.format("%05d", i)).append(',').append(p[0]).append(',').append(p[1])
                    .append(',').append(p[2]).append(",ERP-").append(i).append('\n');
        }
        return sb.toString();
    }

    @Test
    void errors_before_commit_lost_answers_and_latency_never_cost_an_order_twice_or_lose_one() throws Exception {
        sandbox.config().setErrorRate(0.15).setLostAnswerRate(0.2).setLostAnswerMode(LostAnswerMode.MIXED)
                .setLatency(DurationRange.of(Duration.ofMillis(5), Duration.ofMillis(80)));
        run.drop("faulty.csv", plainFile("F-", 60));

        int exit = run.runOnce(Duration.ofMinutes(3));

        assertThat(exit).as(run.output()).isZero();
        Report report = Report.read(run.reports, "faulty", ',');
        assertThat(report.rows()).hasSize(60);
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(report.count("rejected")).isZero();
        assertThat(sandbox.ledger()).hasSize(60);
        assertThat(run.output()).doesNotContain(sandbox.config().apiSecret());
    }

    @Test
    void without_check_order_the_history_finds_the_outcomes() throws Exception {
        sandbox.config().setCheckOrder(false).setLostAnswerRate(0.3).setLostAnswerMode(LostAnswerMode.MIXED);
        run.env.put("TOPUP_WEBHOOK_PORT", "0"); // polling alone
        run.drop("history.csv", plainFile("H-", 30));

        int exit = run.runOnce(Duration.ofMinutes(3));

        assertThat(exit).as(run.output()).isZero();
        Report report = Report.read(run.reports, "history", ',');
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(sandbox.ledger()).hasSize(30);
        assertThat(sandbox.stats().requestsPerOperation().get("order-history")).isPositive();
    }

    @Test
    void dropping_a_processed_file_again_orders_nothing_and_a_reexport_under_new_ref_ids_only_what_allow_repeat_says()
            throws Exception {
        run.env.put("TOPUP_REPEAT_WINDOW", "24h"); // the default, which JarRun turns off for the other tests
        String content = plainFile("R-", 8);
        run.drop("again.csv", content);
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        List<LedgerEntry> first = sandbox.ledger();

        run.drop("again.csv", content);
        // the same rows exported again by the ERP under new ref_ids (the phone number in another form);
        // the first says allow_repeat
        String reexport = plainFile("R2-", 8).replace(",erp_id\n", ",erp_id,Allow_Repeat\n")
                .replace("081234567890", "+6281234567890").replaceAll("(ERP-\\d+)\n", "$1,\n")
                .replaceFirst("ERP-1,\n", "ERP-1,Yes\n");
        run.drop("reexport.csv", reexport);
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();

        // an order that failed is no order to repeat: its re-export is ordered again
        List<String> failed = first.stream().filter(e -> e.status().equals("failed")).map(LedgerEntry::refId).toList();
        assertThat(sandbox.ledger()).hasSize(first.size() + 1 + failed.size()).containsAll(first);
        Report second = Report.read(run.reports, "again", ',');
        assertThat(second.rows()).hasSize(8).allSatisfy(r -> {
            assertThat(r.get("status")).isEqualTo("rejected");
            assertThat(r.get("message")).containsIgnoringCase("already submitted");
        });
        assertThat(second.summary().get("submitted").asLong()).isZero();
        Report repeats = Report.read(run.reports, "reexport", ',');
        assertThat(repeats.header()).contains("Allow_Repeat");
        assertThat(repeats.rows()).hasSize(8);
        assertThat(repeats.rows().get(0)).containsEntry("ref_id", "R2-00001").doesNotContainEntry("status", "rejected")
                .containsEntry("Allow_Repeat", "Yes");
        for (int i = 2; i <= 8; i++) {
            Map<String, String> row = repeats.rows().get(i - 1);
            if (failed.contains("R-0000" + i)) {
                assertThat(row.get("status")).as(row.toString()).isNotEqualTo("rejected");
                continue;
            }
            assertThat(row.get("status")).as(row.toString()).isEqualTo("rejected");
            assertThat(row.get("message")).as(row.toString()).matches("repeats ref_id R-0000" + i
                    + " of batch \\d+ \\(again\\.csv\\), sent \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, for the same product"
                    + " and customer; write yes in allow_repeat to order it again");
        }
    }

    @Test
    void orders_still_pending_at_the_timeout_end_the_run_with_exit_3() throws Exception {
        sandbox.config().setSettleDelay(DurationRange.of(Duration.ofSeconds(60), Duration.ofSeconds(60)));
        run.env.put("TOPUP_PENDING_TIMEOUT", "3s");
        run.drop("slow.csv", "ref_id,product_sku,customer_no,customer_no_zone\nP-1,GI60,812345678,asia\nP-2,FF100,12345678,\n");

        int exit = run.runOnce(Duration.ofMinutes(2));

        assertThat(exit).as(run.output()).isEqualTo(3);
        Report report = Report.read(run.reports, "slow", ',');
        assertThat(report.byLine(2).get("status")).isEqualTo("pending");
        assertThat(report.byLine(3).get("status")).isEqualTo("success");
        assertThat(report.summary().get("pending").asLong()).isEqualTo(1);
    }

    @Test
    void a_file_without_a_usable_header_gets_a_summary_saying_why() throws Exception {
        run.drop("broken.csv", "this is not,a batch\n1,2\n");
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        Report report = Report.read(run.reports, "broken", ',');
        assertThat(report.summary().get("rows").asLong()).isZero();
        assertThat(report.summary().get("error").asText()).contains("ref_id");
        assertThat(Files.exists(run.reports.resolve("broken.result.csv"))).isFalse();
        assertThat(sandbox.ledger()).isEmpty();
    }

    @Test
    void a_bad_setting_stops_the_start_with_one_line_naming_it() throws Exception {
        run.env.put("TOPUP_PENDING_TIMEOUT", "soon");
        assertThat(run.runOnce(Duration.ofMinutes(1))).isEqualTo(1);
        assertThat(run.output().strip()).doesNotContain("\n").contains("topup.pending-timeout").contains("soon");
    }

    @Test
    void refused_credentials_end_the_run_with_exit_1_and_keep_the_secret() throws Exception {
        run.env.put("TOPUP_API_SECRET", "not-the-secret-123");
        run.drop("never.csv", plainFile("N-", 2));
        assertThat(run.runOnce(Duration.ofMinutes(1))).isEqualTo(1);
        assertThat(run.output()).contains("INVALID_SIGNATURE").doesNotContain("not-the-secret-123");
        assertThat(sandbox.ledger()).isEmpty();
        assertThat(run.inbox.resolve("never.csv")).exists();
    }
}
