package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.AwayFromMidnight;
import org.topupbatch.testing.Poll;

/**
 * {@code reconcile DAY} on the built jar, on both journals, against a sandbox that acts out what a
 * reconciliation must find: a deposit made mid-batch (reported exactly as {@code unexplained}), an
 * order another client placed on the account, a success refunded after the fact (the journal
 * follows the provider and the batch's report is written again, the earlier one kept) and orders
 * pending past the pending timeout. The sandbox never loses an order nor changes a price, so the
 * journal is made to disagree for the last two kinds: one order's ref_id and another's price are
 * changed in the journal while the product is stopped.
 */
class ReconcileE2ETest {

    static final long DEPOSIT = 500_000;
    static final int ROWS = 24;

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(29L)
                    .setLatency(DurationRange.of(Duration.ofMillis(60), Duration.ofMillis(120))))
            .env("TOPUP_WEBHOOK_PORT", "0").env("TOPUP_MODE", "once").env("TOPUP_SUBMIT_CONCURRENCY", "1")
            .env("TOPUP_PENDING_TIMEOUT", "3s");
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();
    /** The business zone: one where it is about noon, so that no day turns during a test (as Jakarta's does at 17:00 UTC). */
    final ZoneId zone = AwayFromMidnight.zone();

    @BeforeEach
    void start() {
        run.env.put("TOPUP_BUSINESS_ZONE", zone.getId());
    }

    static String batch() {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        for (int i = 1; i <= ROWS; i++) {
            csv.append("RC-").append(i).append(",FF100,").append(40_000_000 + i).append(",\n");
        }
        return csv.toString();
    }

    /** reconcile-DAY.csv as an accountant's tool reads it. */
    static Report reconcileLines(Path csv) throws java.io.IOException {
        org.apache.commons.csv.CSVFormat format = org.apache.commons.csv.CSVFormat.RFC4180.builder().setHeader()
                .setSkipHeaderRecord(true).build();
        List<Map<String, String>> rows = new java.util.ArrayList<>();
        try (var parser = format.parse(Files.newBufferedReader(csv))) {
            for (var record : parser) {
                Map<String, String> row = new java.util.LinkedHashMap<>();
                parser.getHeaderNames().forEach(h -> row.put(h, record.get(h)));
                rows.add(row);
            }
            return new Report(parser.getHeaderNames(), rows, null);
        }
    }

    /** The summary of the day's reconciliation the running product makes on its schedule, once written whole. */
    static JsonNode scheduledSummary(JarRun run, LocalDate day) {
        Path summary = run.reports.resolve("reconcile-" + day + ".summary.json");
        Poll.until("the daily reconciliation's summary", Duration.ofSeconds(90), () -> Files.exists(summary), ok -> ok,
                run::output);
        return Poll.until("the summary readable", Duration.ofSeconds(10), () -> {
            try {
                return new ObjectMapper().readTree(summary.toFile());
            } catch (java.io.IOException halfSeen) {
                return null;
            }
        }, n -> n != null);
    }

    @org.junit.jupiter.api.Test
    void the_service_reconciles_yesterday_by_itself_on_its_schedule() throws Exception {
        run.env.put("TOPUP_MODE", "watch");
        run.env.put("TOPUP_RECONCILE_SCHEDULE", "0/2 * * * * ?"); // Quartz's form: every 2 s, for the test
        LocalDate yesterday = LocalDate.now(zone).minusDays(1);
        run.start();
        JsonNode written = scheduledSummary(run, yesterday);
        assertThat(written.get("day").asText()).isEqualTo(yesterday.toString());
        assertThat(written.get("exceptions").get("unknown_to_journal").asLong()).isZero();
        Poll.until("the log line", Duration.ofSeconds(10), () -> run.output().contains("Reconciled " + yesterday
                + " (" + zone + ")"), ok -> ok, run::output);
        assertThat(sandbox.ledger()).as("reconciling orders nothing").isEmpty();
    }

    // on H2 only, for the suite's time: AccountsReconcileE2ETest reconciles on PostgreSQL, through the
    // same reconciliation SQL
    @ParameterizedTest
    @EnumSource(value = JournalDatabase.class, names = "H2")
    void a_day_is_reconciled_every_exception_listed_and_every_rupiah_explained(JournalDatabase journal) throws Exception {
        product.journalOn(journal);
        LocalDate day = LocalDate.now(zone);
        long balanceAtStart = sandbox.balance();

        // a batch, with a deposit and another client's order while it is sent
        run.drop("orders.csv", batch());
        Process first = run.start();
        Poll.until("a third of the batch ordered", Duration.ofSeconds(60), () -> sandbox.ledger().size() >= ROWS / 3);
        sandbox.deposit(DEPOSIT);
        LedgerEntry foreign = sandbox.foreignOrder("OTHER-1", "ML86", "123456789", "2345");
        assertThat(first.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(first.exitValue()).as(run.output()).isZero();

        // two orders that stay pending at the provider past the pending timeout
        sandbox.config().setSettleDelay(DurationRange.of(Duration.ofMinutes(10), Duration.ofMinutes(10)));
        run.drop("vouchers.csv", "ref_id,product_sku,customer_no\nRV-1,STEAM45K,a@example.com\nRV-2,STEAM45K,b@example.com\n");
        Process second = run.start();
        assertThat(second.waitFor(2, TimeUnit.MINUTES)).isTrue();

        // after the day: a success refunded by the provider; the journal made to disagree twice
        sandbox.refund("RC-1");
        run.changeJournal("UPDATE batch_row SET ref_id = 'RC-GHOST', order_ref_id = 'RC-GHOST' WHERE ref_id = 'RC-3'",
                "UPDATE batch_row SET price = price + 1000 WHERE ref_id = 'RC-2'");

        assertThat(product.command("reconcile", day.toString())).as(product.commandOutput()).isEqualTo(2);
        assertThat(product.commandOutput()).contains("Reconciliation of " + day + " (" + zone + ")").contains("nothing ordered")
                .contains("unexplained Rp 500.000").doesNotContainPattern("[A-Za-z]+Exception\\b");
        JsonNode summary = new ObjectMapper().readTree(run.reports.resolve("reconcile-" + day + ".summary.json").toFile());
        List<LedgerEntry> ledger = sandbox.ledger();
        assertThat(summary.get("day").asText()).isEqualTo(day.toString());
        assertThat(summary.get("provider_orders").asLong()).isEqualTo(ledger.size());
        assertThat(summary.get("journal_orders").asLong()).isEqualTo(ROWS + 2);
        JsonNode exceptions = summary.get("exceptions");
        assertThat(Map.of("unknown_to_journal", exceptions.get("unknown_to_journal").asLong(),
                "missing_at_provider", exceptions.get("missing_at_provider").asLong(),
                "status_differs", exceptions.get("status_differs").asLong(),
                "price_differs", exceptions.get("price_differs").asLong(),
                "pending_too_long", exceptions.get("pending_too_long").asLong()))
                .isEqualTo(Map.of("unknown_to_journal", 2L, "missing_at_provider", 1L, "status_differs", 1L,
                        "price_differs", 1L, "pending_too_long", 2L));
        assertThat(summary.get("matched").asLong()).isEqualTo(ROWS + 2 - 5);
        long rc3 = ledger.stream().filter(e -> e.refId().equals("RC-3")).findFirst().orElseThrow().price();
        assertThat(summary.get("foreign_charged").asLong()).isEqualTo(foreign.price() + rc3);
        assertThat(summary.get("balance_first").asLong()).isEqualTo(balanceAtStart);
        assertThat(summary.get("balance_now").asLong()).isEqualTo(sandbox.balance());
        assertThat(summary.get("unexplained").asLong()).as("the deposit, exactly").isEqualTo(DEPOSIT);

        Report lines = reconcileLines(run.reports.resolve("reconcile-" + day + ".csv"));
        assertThat(lines.header()).containsExactlyElementsOf(org.topupbatch.reconcile.ReconcileFiles.HEADER);
        assertThat(lines.rows()).hasSize(7);
        assertThat(lines.rows()).filteredOn(r -> r.get("kind").equals("status_differs")).singleElement()
                .satisfies(r -> {
                    assertThat(r.get("ref_id")).isEqualTo("RC-1");
                    assertThat(r.get("journal_status")).isEqualTo("success");
                    assertThat(r.get("provider_status")).isEqualTo("failed");
                    assertThat(r.get("batch")).isEqualTo("orders.csv");
                    assertThat(r.get("message")).startsWith("refunded after success");
                });
        assertThat(lines.rows()).filteredOn(r -> r.get("kind").equals("missing_at_provider"))
                .extracting(r -> r.get("ref_id")).containsExactly("RC-GHOST");
        assertThat(lines.rows()).filteredOn(r -> r.get("kind").equals("unknown_to_journal"))
                .extracting(r -> r.get("ref_id")).containsExactlyInAnyOrder("RC-3", "OTHER-1");
        assertThat(lines.rows()).filteredOn(r -> r.get("kind").equals("price_differs")).singleElement()
                .satisfies(r -> assertThat(r.get("amount")).isEqualTo("-1000"));
        assertThat(lines.rows()).filteredOn(r -> r.get("kind").equals("pending_too_long"))
                .extracting(r -> r.get("ref_id")).containsExactlyInAnyOrder("RV-1", "RV-2");

        // the journal follows the provider, loudly: the batch's report again, the earlier one kept
        Report again = Report.read(run.reports, "orders", ',');
        assertThat(again.rows()).filteredOn(r -> r.get("ref_id").equals("RC-1")).singleElement()
                .satisfies(r -> {
                    assertThat(r.get("status")).isEqualTo("failed");
                    assertThat(r.get("message")).startsWith("refunded after success: the provider's history shows failed");
                });
        try (Stream<Path> files = Files.list(run.reports)) {
            Path kept = files.filter(p -> p.getFileName().toString().matches("orders\\.before-reconcile-\\d{8}-\\d{6}\\.result\\.csv"))
                    .findFirst().orElseThrow(() -> new AssertionError("no earlier report kept in " + run.reports));
            assertThat(Files.readString(kept)).contains("RC-1,FF100,40000001,,success,");
        }
        assertThat(product.commandOutput()).contains("order RC-1 of orders.csv was success in the journal");

        // once more: the refund is the journal's now; the earlier reconciliation is kept
        assertThat(product.command("reconcile", day.toString())).as(product.commandOutput()).isEqualTo(2);
        JsonNode second2 = new ObjectMapper().readTree(run.reports.resolve("reconcile-" + day + ".summary.json").toFile());
        assertThat(second2.get("exceptions").get("status_differs").asLong()).isZero();
        try (Stream<Path> files = Files.list(run.reports)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.matches("reconcile-" + day + "\\.earlier-\\d{8}-\\d{6}\\.csv"));
        }
        assertThat(sandbox.ledger()).as("reconciling orders nothing").hasSize(ledger.size());
        assertThat(product.command("status")).isZero();
        assertThat(product.commandOutput()).contains("Reconciled: " + day + " (" + zone + ") at ")
                .contains("6 exceptions unknown_to_journal 2, missing_at_provider 1, price_differs 1, pending_too_long 2")
                .contains("unexplained Rp 500.000");

        assertThat(product.command("reconcile", "2999-01-01")).isEqualTo(1);
        assertThat(product.commandOutput().strip()).startsWith("topup-batch: cannot reconcile: 2999-01-01 has not begun yet");
    }
}
