package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.Poll;

/**
 * The dashboard with two accounts (docs/operating.md#dashboard-health-and-metrics, docs/accounts-and-dialects.md#several-accounts) in a
 * real headless chromium, while the built jar orders one batch across {@code main} (a sandbox of the
 * default dialect, Free Fire down there from the start) and {@code dfz} (a sandbox speaking Digiflazz),
 * and Telkomsel goes down at main in the middle of the batch, so that its later rows move to dfz as
 * {@code REF-F2}. What a person sees is checked against the sandboxes themselves: each account's
 * place, balance (its sandbox's), rate window (every request its sandbox received: the whole run lies
 * within one minute), pace, and the batch's rows per account (its sandbox's ledger: orders, those that
 * came after main refused them, what they cost); dashboard.json carries the same. Then main goes away:
 * the next request to it (the next batch asks every account for its balance) gets no answer, and its
 * line says it cannot be reached. The scrape of /observe/metrics passes
 * {@code promtool check metrics} and has each account's series. The screenshot is kept as
 * target/dashboard-accounts.png.
 */
class AccountsDashboardE2ETest {

    private static final String MAIN = AccountsRunE2ETest.MAIN;
    private static final String DFZ = AccountsRunE2ETest.DFZ;
    private static final int ROWS = 40;
    /** Columns of an account's line, and of a batch's line per account, as the page shows them. */
    private static final List<String> ACCOUNT_COLUMNS = List.of("name", "where", "balance", "read", "rate", "pace", "today");
    private static final List<String> BATCH_ACCOUNT_COLUMNS = List.of("account", "submitted", "success", "failed", "pending",
            "queued", "moved", "charged");
    /** Every account line and every batch with its lines per account, read in one go (the page redraws every 2 s). */
    private static final String SNAPSHOT = """
            const cells = tr => [...tr.children].map(td => td.innerText.trim());
            return {
              accounts: [...document.querySelectorAll('#account-rows tr.account')].map(cells),
              oneAccountTilesShown: [...document.querySelectorAll('.one-account')].some(t => t.offsetParent !== null),
              batches: [...document.querySelectorAll('#batches tr.batch')].map(tr => {
                const next = tr.nextElementSibling;
                return { cells: cells(tr), accounts: next && next.classList.contains('batch-accounts')
                    ? [...next.querySelectorAll('tr.batch-account')].map(cells) : [] };
              })
            };""";

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    @RegisterExtension
    final HeadlessChromium chromium = new HeadlessChromium();
    private final JarRun run = product.run();
    private final ChromeDriver browser = chromium.start();
    private SandboxProvider main;
    private SandboxProvider dfz;

    /** The page as read at one moment: each account's line, each batch's cells and its lines per account. */
    private record Snapshot(Map<String, Map<String, String>> accounts, boolean oneAccountTilesShown,
                            Map<String, Map<String, Map<String, String>>> batchAccounts, Map<String, String> batchStates) {

        @SuppressWarnings("unchecked")
        static Snapshot of(ChromeDriver browser) {
            Map<String, Object> read = (Map<String, Object>) browser.executeScript(SNAPSHOT);
            Map<String, Map<String, String>> accounts = new java.util.LinkedHashMap<>();
            for (List<String> line : (List<List<String>>) read.get("accounts")) {
                accounts.put(line.get(0), named(ACCOUNT_COLUMNS, line));
            }
            Map<String, Map<String, Map<String, String>>> perBatch = new java.util.LinkedHashMap<>();
            Map<String, String> states = new java.util.LinkedHashMap<>();
            for (Map<String, Object> batch : (List<Map<String, Object>>) read.get("batches")) {
                List<String> cells = (List<String>) batch.get("cells");
                states.put(cells.get(0), cells.get(1));
                Map<String, Map<String, String>> each = new java.util.LinkedHashMap<>();
                for (List<String> line : (List<List<String>>) batch.get("accounts")) {
                    each.put(line.get(0), named(BATCH_ACCOUNT_COLUMNS, line));
                }
                perBatch.put(cells.get(0), each);
            }
            return new Snapshot(accounts, (Boolean) read.get("oneAccountTilesShown"), perBatch, states);
        }

        private static Map<String, String> named(List<String> columns, List<String> cells) {
            Map<String, String> m = new java.util.LinkedHashMap<>();
            for (int i = 0; i < columns.size() && i < cells.size(); i++) {
                m.put(columns.get(i), cells.get(i));
            }
            return m;
        }

        String account(String account, String column) {
            return accounts.getOrDefault(account, Map.of()).get(column);
        }
    }

    @Test
    void each_accounts_balance_rate_window_and_share_of_the_batch_is_shown_as_its_sandbox_has_it() throws Exception {
        main = product.startSandbox(SandboxConfig.defaults().setSeed(81L).setUnavailable(List.of("FF100"))
                .setLatency(DurationRange.of(Duration.ofMillis(20), Duration.ofMillis(60))));
        dfz = product.startSandbox(SandboxConfig.defaults().setSeed(82L).setDialect(SandboxDialect.DIGIFLAZZ)
                .setLatency(DurationRange.of(Duration.ofMillis(10), Duration.ofMillis(40))));
        ProductFixture.twoAccounts(run.env, main, dfz);
        run.drop("dash-accounts.csv", AccountsRunE2ETest.mixedBatch("DA-", ROWS));
        Process p = run.start();
        // the rate windows are 60 s from the product's first request; the jar's start (seconds on a loaded machine) is not in them
        Poll.until("the product's first request", Duration.ofSeconds(90),
                () -> main.stats().totalRequests() + dfz.stats().totalRequests(), n -> n > 0 || !p.isAlive(), run::output);
        long started = System.nanoTime();

        // Telkomsel down at main once some of its rows are ordered there: the rest move to dfz as REF-F2
        Poll.until("main's ledger holds some orders", Duration.ofSeconds(60), () -> main.ledger().size(),
                n -> n >= 4 || !p.isAlive(), run::output);
        HttpResponse<String> changed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(main.baseUrl() + "/sandbox/config")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"unavailable\": \"FF100,TSEL10\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);

        String page = "http://127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT") + "/";
        browser.get(page);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(120), Duration.ofMillis(300));
        // the batch reported, and what the page shows of each account caught up with its sandbox: the
        // balance of its latest answer (the report reads both), the requests in its window
        Snapshot[] last = {null};
        wait.withMessage(() -> "the dashboard never showed the reported batch with each account as its sandbox has it;"
                        + " last seen: " + last[0] + "\nsandboxes: main " + sandboxFigures(main) + ", dfz " + sandboxFigures(dfz)
                        + "\nthe run's output:\n" + run.output())
                .until(b -> {
                    last[0] = Snapshot.of(browser);
                    return "reported".equals(last[0].batchStates().get("dash-accounts.csv"))
                            && rupiah(main.balance()).equals(last[0].account(MAIN, "balance"))
                            && rupiah(dfz.balance()).equals(last[0].account(DFZ, "balance"))
                            && (main.stats().totalRequests() + " / 300").equals(last[0].account(MAIN, "rate"))
                            && (dfz.stats().totalRequests() + " / 300").equals(last[0].account(DFZ, "rate"));
                });
        Snapshot shown = last[0];
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        System.out.println("DASHBOARD ACCOUNTS after " + seconds + " s: " + shown.accounts() + "\nper account: "
                + shown.batchAccounts().get("dash-accounts.csv"));
        assertThat(seconds).as("the rate windows were compared with every request the sandboxes had: within one minute")
                .isLessThan(60);

        Map<String, LedgerEntry> atMain = byRef(main);
        Map<String, LedgerEntry> atDfz = byRef(dfz);
        long moved = atDfz.keySet().stream().filter(ref -> ref.endsWith("-F2")).count();
        assertThat(moved).as("rows moved to dfz after main refused them; the run's output:\n" + run.output()).isPositive();
        assertThat(atMain.size() + atDfz.size()).as("every row ordered once").isEqualTo(ROWS);

        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(shown.accounts().keySet()).as("the accounts in the order of topup.providers").containsExactly(MAIN, DFZ);
        soft.assertThat(shown.account(MAIN, "where")).isEqualTo("topup, 127.0.0.1:" + main.port());
        soft.assertThat(shown.account(DFZ, "where")).isEqualTo("digiflazz, 127.0.0.1:" + dfz.port());
        for (String account : List.of(MAIN, DFZ)) {
            soft.assertThat(shown.account(account, "read")).as(account).matches("as of \\d+ s ago");
            soft.assertThat(shown.account(account, "pace")).as(account + ": 300 a minute, evenly").isEqualTo("5 a second");
            soft.assertThat(shown.account(account, "today")).as(account).matches("\\d+ / [\\d.]+");
        }
        soft.assertThat(shown.oneAccountTilesShown()).as("the one-account balance and rate tiles are hidden").isFalse();
        Map<String, Map<String, String>> perAccount = shown.batchAccounts().get("dash-accounts.csv");
        soft.assertThat(perAccount.keySet()).containsExactly(MAIN, DFZ);
        soft.assertThat(perAccount.get(MAIN)).as("main's share: its ledger").isEqualTo(Map.of("account", MAIN,
                "submitted", whole(atMain.size()), "success", whole(atMain.size()), "failed", "0", "pending", "0",
                "queued", "0", "moved", "0", "charged", rupiah(charged(atMain))));
        soft.assertThat(perAccount.get(DFZ)).as("dfz's share: its ledger, the REF-F2 orders moved there").isEqualTo(Map.of(
                "account", DFZ, "submitted", whole(atDfz.size()), "success", whole(atDfz.size()), "failed", "0",
                "pending", "0", "queued", "0", "moved", whole(moved), "charged", rupiah(charged(atDfz))));
        // the same facts as the summary's accounts
        JsonNode summary = Report.read(run.reports, "dash-accounts", ',').summary().get("accounts");
        for (String account : List.of(MAIN, DFZ)) {
            soft.assertThat(perAccount.get(account).get("submitted")).as(account + " " + summary)
                    .isEqualTo(whole(summary.get(account).get("submitted").asLong()));
            soft.assertThat(perAccount.get(account).get("charged")).as(account + " " + summary)
                    .isEqualTo(rupiah(summary.get(account).get("charged").asLong()));
        }
        soft.assertAll();
        inTheJson(atMain.size(), atDfz.size(), moved);

        String metrics = scrapeMetrics();
        accountsInMetrics(metrics);

        mainGoesAway(wait);
        Path shot = screenshot();
        System.out.println("DASHBOARD ACCOUNTS screenshot: " + shot);
        assertThat(Files.size(shot)).isPositive();
    }

    /** dashboard.json: each account, and the batch's rows per account. */
    private void inTheJson(long atMain, long atDfz, long moved) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + run.env.get("TOPUP_MANAGEMENT_PORT") + "/dashboard.json")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode view = new com.fasterxml.jackson.databind.ObjectMapper().readTree(answer.body());
        JsonNode accounts = view.get("accounts");
        assertThat(accounts).as(answer.body()).hasSize(2);
        assertThat(accounts.get(0).get("name").asText()).isEqualTo(MAIN);
        assertThat(accounts.get(0).get("dialect").asText()).isEqualTo("topup");
        assertThat(accounts.get(0).get("reachable").asBoolean()).isTrue();
        assertThat(accounts.get(1).get("name").asText()).isEqualTo(DFZ);
        assertThat(accounts.get(1).get("dialect").asText()).isEqualTo("digiflazz");
        assertThat(accounts.get(1).get("rate").get("limit").asInt()).isEqualTo(300);
        JsonNode batch = view.get("batches").get(0);
        assertThat(batch.get("file").asText()).isEqualTo("dash-accounts.csv");
        JsonNode perAccount = batch.get("accounts");
        assertThat(perAccount.get(0).get("name").asText()).isEqualTo(MAIN);
        assertThat(perAccount.get(0).get("success").asLong()).isEqualTo(atMain);
        assertThat(perAccount.get(1).get("name").asText()).isEqualTo(DFZ);
        assertThat(perAccount.get(1).get("submitted").asLong()).isEqualTo(atDfz);
        assertThat(perAccount.get(1).get("movedHere").asLong()).isEqualTo(moved);
    }

    /** Each account's series, with its name as label, in a scrape that promtool finds clean. */
    private void accountsInMetrics(String metrics) throws Exception {
        Promtool.Result lint = Promtool.run(metrics, "check", "metrics");
        System.out.println("promtool check metrics, two accounts (exit " + lint.exitCode() + "): " + lint.output());
        assertThat(lint.exitCode()).as("promtool check metrics on a scrape with two accounts:\n" + lint.output()).isZero();
        assertThat(lint.output()).as("no lint problems").isBlank();
        assertThat(metrics).contains(
                "# TYPE topup_account_balance_rupiah gauge",
                "topup_account_balance_rupiah{account=\"main\"} " + (double) main.balance(),
                "topup_account_balance_rupiah{account=\"dfz\"} " + (double) dfz.balance(),
                "# TYPE topup_account_rate_window_used gauge",
                "topup_account_rate_window_used{account=\"main\"} ",
                "topup_account_rate_window_used{account=\"dfz\"} ",
                "# TYPE topup_account_rate_window_limit gauge",
                "topup_account_rate_window_limit{account=\"main\"} 300.0",
                "topup_account_rate_window_limit{account=\"dfz\"} 300.0",
                "topup_provider_calls_total{answer=\"200\",operation=\"create-order\",provider=\"main\"} ",
                "topup_provider_calls_total{answer=\"200\",operation=\"create-order\",provider=\"dfz\"} ");
        assertThat(metrics).as("no other label on the account series")
                .containsPattern("(?m)^topup_account_rate_window_used\\{account=\"main\"\\} \\d+\\.0$");
    }

    /**
     * Main's sandbox stops: the next batch asks every account for its balance (at intake, and for its
     * report), main's request gets no answer, and main's line says it cannot be reached, with the
     * balance it last had.
     */
    private void mainGoesAway(WebDriverWait wait) throws Exception {
        String lastBalance = rupiah(main.balance());
        main.close();
        main = null;
        // Free Fire is down at main: both rows go to dfz, and only the balance reads ask main; the file's
        // name is markup, which the page must show as text
        run.drop(MARKUP_NAME, "ref_id,product_sku,customer_no,customer_no_zone\nAL-1,FF100,31000001,\n"
                + "AL-2,FF100,31000003,\n");
        Snapshot[] last = {null};
        wait.withMessage(() -> "main never shown out of reach; last seen: " + last[0] + "\nthe run's output:\n" + run.output())
                .until(b -> {
                    last[0] = Snapshot.of(browser);
                    return last[0].account(MAIN, "read") != null && last[0].account(MAIN, "read").startsWith("cannot be reached now");
                });
        System.out.println("DASHBOARD ACCOUNTS, main gone: " + last[0].accounts().get(MAIN));
        assertThat(last[0].account(MAIN, "read")).matches("cannot be reached now \\(no answer for \\d+ s\\); balance as of \\d+ s ago");
        assertThat(last[0].account(MAIN, "balance")).isEqualTo(lastBalance);
        assertThat(last[0].account(DFZ, "read")).matches("as of \\d+ s ago");

        wait.withMessage(() -> "the batch named with markup never shown; the run's output:\n" + run.output())
                .until(b -> Snapshot.of(browser).batchStates().containsKey(MARKUP_NAME));
        assertThat(browser.executeScript("return document.querySelectorAll('#batches img').length")).as("markup shown as text")
                .isEqualTo(0L);
        assertThat(browser.executeScript("return document.body.dataset.injected === undefined")).isEqualTo(true);
    }

    /** A file name that would run script if the page wrote it as markup. */
    private static final String MARKUP_NAME = "left-<img src=x onerror=document.body.dataset.injected=1>.csv";

    private String scrapeMetrics() throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + run.env.get("TOPUP_MANAGEMENT_PORT") + "/observe/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).as(scrape.body()).isEqualTo(200);
        return scrape.body();
    }

    private static Map<String, LedgerEntry> byRef(SandboxProvider sandbox) {
        Map<String, LedgerEntry> byRef = new java.util.HashMap<>();
        for (LedgerEntry e : sandbox.ledger()) {
            assertThat(byRef.put(e.refId(), e)).as("ref_id %s ordered twice", e.refId()).isNull();
            assertThat(e.status()).as(e.toString()).isEqualTo("success");
        }
        return byRef;
    }

    private static long charged(Map<String, LedgerEntry> ledger) {
        return ledger.values().stream().mapToLong(LedgerEntry::price).sum();
    }

    private static String sandboxFigures(SandboxProvider sandbox) {
        return sandbox == null ? "closed" : "balance " + rupiah(sandbox.balance()) + ", " + sandbox.stats().totalRequests()
                + " requests, " + sandbox.ledger().size() + " orders";
    }

    /** Whole numbers as the page writes them: dots group thousands. */
    private static String whole(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n).replace(',', '.');
    }

    private static String rupiah(long n) {
        return "Rp " + whole(n);
    }

    /** Kept beside the built jar (target/), where CI collects test artifacts. */
    private Path screenshot() throws Exception {
        Path taken = browser.getScreenshotAs(OutputType.FILE).toPath();
        Path kept = BuiltJar.path().toAbsolutePath().getParent().resolve("dashboard-accounts.png");
        return Files.copy(taken, kept, StandardCopyOption.REPLACE_EXISTING);
    }
}
