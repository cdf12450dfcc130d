package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * One batch ordered across two accounts (docs/accounts-and-dialects.md#several-accounts) by the built jar: {@code main}, a
 * sandbox of the default dialect, and {@code dfz}, a sandbox speaking Digiflazz. No product map: both
 * sell every product under its own code, main first. A product down at main before the run goes to dfz
 * under the row's own ref_id; a product that goes down at main in the middle of the batch makes main
 * refuse create-order (422 PRODUCT_UNAVAILABLE, no order), and each refused row goes to dfz under
 * {@code REF-F2}. Every row ends success, each order is in exactly one ledger once, and the report's
 * {@code provider}/{@code provider_ref_id} columns and the summary's {@code accounts} agree with the
 * ledgers. The mid-batch case runs on H2 and PostgreSQL.
 */
class AccountsRunE2ETest {

    static final String MAIN = ProductFixture.MAIN;
    static final String DFZ = ProductFixture.DFZ;

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    SandboxProvider main;
    SandboxProvider dfz;
    final JarRun run = product.run();

    /** Starts both sandboxes (gold tier: 300 requests a minute each) and points the run's two accounts at them. */
    private void startAccounts(SandboxConfig mainConfig) {
        main = product.startSandbox(mainConfig);
        dfz = product.startSandbox(SandboxConfig.defaults().setSeed(72L).setDialect(SandboxDialect.DIGIFLAZZ)
                .setLatency(DurationRange.of(Duration.ofMillis(10), Duration.ofMillis(40))));
        ProductFixture.twoAccounts(run.env, main, dfz);
    }

    /** Free Fire 100 (instant, 8-12 digits) and Telkomsel 10.000 (instant, 0812...), by turns. */
    static String mixedBatch(String prefix, int rows) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        for (int i = 1; i <= rows; i++) {
            csv.append(prefix).append(i).append(i % 2 == 1
                    ? ",FF100,3" + String.format("%07d", i) + ",\n"
                    : ",TSEL10,08121234" + String.format("%04d", i) + ",\n");
        }
        return csv.toString();
    }

    static String telkomselBatch(String prefix, int rows) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        for (int i = 1; i <= rows; i++) {
            csv.append(prefix).append(i).append(",TSEL10,08131234").append(String.format("%04d", i)).append(",\n");
        }
        return csv.toString();
    }

    @Test
    void a_product_down_at_the_first_account_goes_to_the_second() throws Exception {
        startAccounts(SandboxConfig.defaults().setSeed(71L).setUnavailable(List.of("FF100"))
                .setLatency(DurationRange.of(Duration.ofMillis(10), Duration.ofMillis(40))));
        run.drop("mixed.csv", mixedBatch("MX-", 30));

        int exit = run.runOnce(Duration.ofSeconds(60));
        String out = run.output();
        assertThat(exit).as("exit code; the run's output:\n%s", out).isZero();

        Report report = Report.read(run.reports, "mixed", ',');
        assertThat(report.rows()).as(out).hasSize(30);
        Map<String, LedgerEntry> atMain = ledgerByRef(main, out);
        Map<String, LedgerEntry> atDfz = ledgerByRef(dfz, out);
        SoftAssertions soft = new SoftAssertions();
        for (Map<String, String> row : report.rows()) {
            String ref = row.get("ref_id");
            String where = ref + " " + row + "\nthe run's output:\n" + out;
            soft.assertThat(row.get("status")).as(where).isEqualTo("success");
            if (row.get("product_sku").equals("FF100")) {
                // main lists FF100 as down from the start: dfz is its first candidate, under the row's own ref_id
                soft.assertThat(atDfz).as("FF100 row at dfz: " + where).containsKey(ref);
                soft.assertThat(atMain).as("FF100 row not at main: " + where).doesNotContainKey(ref);
                soft.assertThat(row.get("provider")).as(where).isEqualTo(DFZ);
            } else {
                soft.assertThat(atMain).as("TSEL10 row at main: " + where).containsKey(ref);
                soft.assertThat(atDfz).as("TSEL10 row not at dfz: " + where).doesNotContainKey(ref);
                soft.assertThat(row.get("provider")).as(where).isEqualTo(MAIN);
            }
            soft.assertThat(row.get("provider_ref_id")).as(where).isEqualTo(ref);
        }
        soft.assertThat(atMain.keySet()).as("no ref_id in both ledgers; the run's output:\n" + out)
                .doesNotContainAnyElementsOf(atDfz.keySet());
        soft.assertAll();
        assertReportMatchesLedgers(report, atMain, atDfz, out);
        assertSummaryMatchesLedgers(report, atMain, atDfz, out, false);

        System.out.printf("ACCOUNTS DOWN BEFORE THE RUN: %d rows at main, %d at dfz, %d moved to the fallback (REF-F2)%n",
                atMain.size(), atDfz.size(), atDfz.keySet().stream().filter(r -> r.endsWith("-F2")).count());
    }

    @Test
    void an_account_that_cannot_be_reached_at_start_leaves_its_rows_to_the_other() throws Exception {
        startAccounts(SandboxConfig.defaults().setSeed(74L));
        main.close(); // nothing listens at main's address any more: connections are refused
        run.drop("unreached.csv", mixedBatch("UR-", 10));
        run.env.put("TOPUP_REPORT_FORMATS", "csv,xlsx");

        int exit = run.runOnce(Duration.ofSeconds(60));
        String out = run.output();
        assertThat(exit).as("exit code; the run's output:\n%s", out).isZero();
        assertThat(out).as(out).contains("Account main cannot be reached now");
        Report report = Report.read(run.reports, "unreached", ',');
        Map<String, LedgerEntry> atDfz = ledgerByRef(dfz, out);
        assertThat(report.rows()).as(out).hasSize(10).allSatisfy(row -> {
            assertThat(row.get("status")).as(row + "\n" + out).isEqualTo("success");
            assertThat(row.get("provider")).as(row + "\n" + out).isEqualTo(DFZ);
            assertThat(atDfz).as(row + "\n" + out).containsKey(row.get("ref_id"));
        });
        main = null; // closed already
        // every account of topup.providers in the summary, in its order; main took no row
        JsonNode accounts = report.summary().get("accounts");
        assertThat(accounts).as(out).isNotNull();
        List<String> names = new java.util.ArrayList<>();
        accounts.fieldNames().forEachRemaining(names::add);
        assertThat(names).as(accounts.toString()).containsExactly(MAIN, DFZ);
        assertThat(accounts.get(MAIN).get("submitted").asLong()).as(accounts.toString()).isZero();
        assertThat(accounts.get(MAIN).get("balance_after").isNull()).as("main could not be asked: " + accounts).isTrue();
        assertThat(accounts.get(DFZ).get("success").asLong()).as(accounts.toString()).isEqualTo(10);
        // the result workbook has the account columns too, after message
        try (var workbook = new org.dhatim.fastexcel.reader.ReadableWorkbook(run.reports.resolve("unreached.result.xlsx").toFile());
             var sheetRows = workbook.getFirstSheet().openStream()) {
            List<org.dhatim.fastexcel.reader.Row> sheet = sheetRows.toList();
            assertThat(sheet.get(0).getCellText(9)).isEqualTo("provider");
            assertThat(sheet.get(0).getCellText(10)).isEqualTo("provider_ref_id");
            assertThat(sheet.get(1).getCellText(9)).isEqualTo(DFZ);
            assertThat(sheet.get(1).getCellText(10)).isEqualTo("UR-1");
        }
    }

    /**
     * On PostgreSQL: the other scenarios here run on H2, and the crash campaign across two accounts moves
     * rows on an H2 journal (kept to one journal each for the suite's time).
     */
    @Test
    void a_product_down_mid_batch_sends_each_refused_row_to_the_next_account_under_a_new_ref_id() throws Exception {
        JournalDatabase journal = JournalDatabase.POSTGRESQL;
        product.journalOn(journal);
        startAccounts(SandboxConfig.defaults().setSeed(73L)
                .setLatency(DurationRange.of(Duration.ofMillis(20), Duration.ofMillis(60))));
        int rows = 60;
        run.drop("midbatch.csv", telkomselBatch("MB-", rows));
        run.env.put("TOPUP_MODE", "once");
        Process p = run.start();
        Poll.until("main's ledger holds some orders", Duration.ofSeconds(45), () -> main.ledger().size(),
                n -> n >= 8 || !p.isAlive(), run::output);
        int ordersAtMainWhenDown = main.ledger().size();
        // the sandbox's config change over HTTP, as an operator (or a script) would do it
        HttpResponse<String> changed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(main.baseUrl() + "/sandbox/config"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"unavailable\": \"TSEL10\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(main.config().describe().get("unavailable")).as(changed.body()).isEqualTo("TSEL10");

        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the run did not end within 60 s; its output:\n" + run.output());
        }
        String out = run.output();
        assertThat(p.exitValue()).as("exit code; the run's output:\n%s", out).isZero();

        Report report = Report.read(run.reports, "midbatch", ',');
        assertThat(report.rows()).as(out).hasSize(rows);
        Map<String, LedgerEntry> atMain = ledgerByRef(main, out);
        Map<String, LedgerEntry> atDfz = ledgerByRef(dfz, out);
        SoftAssertions soft = new SoftAssertions();
        int movedOn = 0;
        for (Map<String, String> row : report.rows()) {
            String ref = row.get("ref_id");
            String fallback = ref + "-F2";
            String where = ref + " " + row + "\nthe run's output:\n" + out;
            soft.assertThat(row.get("status")).as(where).isEqualTo("success");
            boolean mainHas = atMain.containsKey(ref);
            boolean dfzHasFallback = atDfz.containsKey(fallback);
            soft.assertThat(mainHas ^ dfzHasFallback)
                    .as("exactly one of %s at main (%s), %s at dfz (%s): %s", ref, mainHas, fallback, dfzHasFallback, where)
                    .isTrue();
            soft.assertThat(atDfz).as("no row goes to dfz under its own ref_id: " + where).doesNotContainKey(ref);
            if (dfzHasFallback) {
                movedOn++;
                soft.assertThat(row.get("provider")).as(where).isEqualTo(DFZ);
                soft.assertThat(row.get("provider_ref_id")).as(where).isEqualTo(fallback);
            } else {
                soft.assertThat(row.get("provider")).as(where).isEqualTo(MAIN);
                soft.assertThat(row.get("provider_ref_id")).as(where).isEqualTo(ref);
            }
        }
        soft.assertThat(movedOn).as("rows moved to dfz as REF-F2; the run's output:\n" + out).isPositive();
        soft.assertThat(atMain.keySet()).as("no ref_id in both ledgers; the run's output:\n" + out)
                .doesNotContainAnyElementsOf(atDfz.keySet());
        soft.assertAll();
        assertReportMatchesLedgers(report, atMain, atDfz, out);
        assertSummaryMatchesLedgers(report, atMain, atDfz, out, true);
        // status BATCH, from the journal: a line per account
        Process status = run.start("status", "midbatch.csv");
        assertThat(status.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        String shown = run.output();
        assertThat(status.exitValue()).as(shown).isZero();
        assertThat(shown).as(shown).contains("Account main: " + atMain.size() + " success, 0 failed")
                .contains("Account dfz: " + atDfz.size() + " success, 0 failed, 0 pending, 0 queued; " + movedOn
                        + " of them after another account refused them");
        if (journal == JournalDatabase.POSTGRESQL) {
            assertThat(run.rowsJournaledFor("midbatch.csv")).as("journaled on PostgreSQL; the run's output:\n%s", out)
                    .isEqualTo(rows);
        }

        long refusedAtMain = main.stats().requestsPerOperation().getOrDefault("create-order", 0L) - atMain.size();
        System.out.printf("ACCOUNTS DOWN MID-BATCH (%s): TSEL10 down at main after %d orders; %d rows at main, %d at dfz,"
                        + " %d moved to the fallback (REF-F2); %d create-orders refused at main%n", journal,
                ordersAtMainWhenDown, atMain.size(), atDfz.size(), movedOn, refusedAtMain);
    }

    /** The sandbox's ledger by ref_id; fails when a ref_id is in it twice. */
    private static Map<String, LedgerEntry> ledgerByRef(SandboxProvider sandbox, String out) {
        Map<String, LedgerEntry> byRef = new HashMap<>();
        for (LedgerEntry e : sandbox.ledger()) {
            LedgerEntry before = byRef.put(e.refId(), e);
            assertThat(before).as("ref_id %s ordered twice at %s; the run's output:\n%s", e.refId(), sandbox.baseUrl(), out)
                    .isNull();
        }
        return byRef;
    }

    /**
     * The report's two account columns right after {@code message}; each row's order is in its account's
     * ledger under provider_ref_id with the reported status, serial and price; every ledger order is some
     * row's, and no 429 was answered at either account.
     */
    private void assertReportMatchesLedgers(Report report, Map<String, LedgerEntry> atMain, Map<String, LedgerEntry> atDfz,
                                            String out) {
        List<String> header = report.header();
        assertThat(header).as("report header; the run's output:\n" + out).contains("message", "provider", "provider_ref_id");
        assertThat(header.indexOf("provider")).as("provider right after message: %s\n%s", header, out)
                .isEqualTo(header.indexOf("message") + 1);
        assertThat(header.indexOf("provider_ref_id")).as("provider_ref_id right after provider: %s\n%s", header, out)
                .isEqualTo(header.indexOf("message") + 2);

        Map<String, Map<String, LedgerEntry>> ledgers = Map.of(MAIN, atMain, DFZ, atDfz);
        Map<String, Set<String>> reported = Map.of(MAIN, new HashSet<>(), DFZ, new HashSet<>());
        SoftAssertions soft = new SoftAssertions();
        for (Map<String, String> row : report.rows()) {
            String where = row + "\nthe run's output:\n" + out;
            String account = row.get("provider");
            if (!ledgers.containsKey(account)) {
                soft.fail("provider '" + account + "' is not an account: " + where);
                continue;
            }
            String providerRef = row.get("provider_ref_id");
            LedgerEntry order = ledgers.get(account).get(providerRef);
            soft.assertThat(order).as("%s not in %s's ledger: %s", providerRef, account, where).isNotNull();
            if (order != null) {
                soft.assertThat(reported.get(account).add(providerRef)).as("%s reported twice: %s", providerRef, where).isTrue();
                soft.assertThat(row.get("status")).as("status: " + where).isEqualTo(order.status());
                soft.assertThat(row.get("serial_number")).as("serial: " + where)
                        .isEqualTo(order.serialNumber() == null ? "" : order.serialNumber());
                soft.assertThat(row.get("price")).as("price: " + where).isEqualTo(Long.toString(order.price()));
                soft.assertThat(order.productSku()).as("product: " + where).isEqualTo(row.get("product_sku"));
                soft.assertThat(order.customerNo()).as("customer: " + where).isEqualTo(row.get("customer_no"));
            }
        }
        for (String account : List.of(MAIN, DFZ)) {
            soft.assertThat(reported.get(account)).as("every order at %s is some row's; the run's output:\n%s", account, out)
                    .containsExactlyInAnyOrderElementsOf(ledgers.get(account).keySet());
        }
        soft.assertThat(main.stats().rateLimited()).as("429 answers at main; the run's output:\n" + out).isZero();
        soft.assertThat(dfz.stats().rateLimited()).as("429 answers at dfz; the run's output:\n" + out).isZero();
        soft.assertAll();
    }

    /** The summary's totals and its {@code accounts} object against the report and the ledgers. */
    private void assertSummaryMatchesLedgers(Report report, Map<String, LedgerEntry> atMain, Map<String, LedgerEntry> atDfz,
                                             String out, boolean mainRefusedSome) {
        JsonNode s = report.summary();
        String where = "summary " + s + "\nthe run's output:\n" + out;
        SoftAssertions soft = new SoftAssertions();
        int rows = report.rows().size();
        soft.assertThat(s.path("rows").asLong()).as(where).isEqualTo(rows);
        soft.assertThat(s.path("success").asLong()).as(where).isEqualTo(rows);
        soft.assertThat(s.path("rejected").asLong()).as(where).isZero();
        JsonNode accounts = s.get("accounts");
        soft.assertThat(accounts).as("accounts in the " + where).isNotNull();
        if (accounts == null || !accounts.isObject()) {
            soft.assertAll();
            throw new AssertionError("no accounts object in the " + where);
        }
        Set<String> names = new HashSet<>();
        accounts.fieldNames().forEachRemaining(names::add);
        soft.assertThat(names).as("account names: " + where).containsExactlyInAnyOrder(MAIN, DFZ);
        long successes = 0;
        for (Map.Entry<String, Map<String, LedgerEntry>> e : Map.of(MAIN, atMain, DFZ, atDfz).entrySet()) {
            String account = e.getKey();
            JsonNode a = accounts.path(account);
            for (String field : List.of("submitted", "success", "failed", "pending", "charged")) {
                soft.assertThat(a.path(field).isNumber()).as("%s.%s is a number: %s", account, field, where).isTrue();
            }
            List<LedgerEntry> orders = List.copyOf(e.getValue().values());
            long ledgerSuccess = orders.stream().filter(o -> o.status().equals("success")).count();
            long reportedHere = report.rows().stream().filter(r -> account.equals(r.get("provider"))).count();
            long charged = orders.stream().filter(o -> o.status().equals("success") || o.status().equals("pending"))
                    .mapToLong(LedgerEntry::price).sum();
            soft.assertThat(a.path("success").asLong()).as("%s.success vs its ledger: %s", account, where).isEqualTo(ledgerSuccess);
            soft.assertThat(a.path("success").asLong()).as("%s.success vs the report: %s", account, where).isEqualTo(reportedHere);
            soft.assertThat(a.path("pending").asLong()).as("%s.pending: %s", account, where).isZero();
            soft.assertThat(a.path("charged").asLong()).as("%s.charged vs its ledger: %s", account, where).isEqualTo(charged);
            long balanceNow = (account.equals(MAIN) ? main : dfz).balance();
            soft.assertThat(a.path("balance_after").asLong()).as("%s.balance_after vs its sandbox: %s", account, where)
                    .isEqualTo(balanceNow);
            soft.assertThat(a.path("submitted").asLong()).as("%s.submitted = success + failed + pending: %s", account, where)
                    .isEqualTo(a.path("success").asLong() + a.path("failed").asLong() + a.path("pending").asLong());
            if (!(account.equals(MAIN) && mainRefusedSome)) {
                // main's refused create-orders (moved on to dfz) may or may not count there as failed
                soft.assertThat(a.path("failed").asLong()).as("%s.failed: %s", account, where).isZero();
            }
            successes += a.path("success").asLong();
        }
        soft.assertThat(successes).as("accounts' successes add up to the rows: " + where).isEqualTo(rows);
        soft.assertThat(accounts.path(MAIN).path("charged").asLong() + accounts.path(DFZ).path("charged").asLong())
                .as("accounts' charges add up to the total: " + where).isEqualTo(s.path("charged").asLong());
        soft.assertAll();
        System.out.println("rows by account: " + report.rows().stream()
                .collect(Collectors.groupingBy(r -> r.get("provider"), TreeMap::new, Collectors.counting())));
    }
}
