package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.PostgresServer;

/**
 * Several accounts (docs/accounts-and-dialects.md#several-accounts) on two nodes (docs/two-nodes.md#two-nodes): the built jar runs
 * twice in watch mode on one embedded PostgreSQL journal and one shared inbox, reports and data folder,
 * both nodes with the same two accounts, {@code main} (a sandbox of the default dialect) and {@code dfz}
 * (a sandbox speaking Digiflazz), and a product map sending Free Fire to dfz first and Telkomsel to main
 * first. Each account has a leader of its own: the test waits until each node leads one account, then
 * one batch of both products is sent by both nodes at once, each only at the account it leads (their
 * metrics say so). TSEL10 goes down at main mid-batch (main then refuses create-order, 422
 * PRODUCT_UNAVAILABLE, no order) and its rows move to dfz as {@code REF-F2}; a few orders later the node
 * holding the journal's lock is SIGKILLed, and the other must take its account and the journal over and
 * finish. Every row ends success with exactly one order across both ledgers (REF at its product's first
 * account xor REF-F2 at its second), no ref_id twice in a ledger, every order some row's, the report's
 * {@code provider} and {@code provider_ref_id} columns and the summary's {@code accounts} agreeing with the
 * ledgers, and no 429 at either account. Prints one line of figures, the failover time among them (from
 * the kill until the survivor leads both accounts).
 */
class AccountsFailoverE2ETest {

    static final String MAIN = "main";
    static final String DFZ = "dfz";
    static final String BATCH = "accounts-failover";
    static final int ROWS = 160;
    /** Each product's accounts in the map's order: its first takes it under REF, its second under REF-F2. */
    static final Map<String, List<String>> ROUTES = Map.of("TSEL10", List.of(MAIN, DFZ), "FF100", List.of(DFZ, MAIN));
    private static final Duration STEP_LIMIT = Duration.ofSeconds(60);

    // each node is a product of its own (ProductFixture.node), on the same two accounts
    @RegisterExtension
    final ProductFixture product = ProductFixture.onTwoAccounts(() -> SandboxConfig.defaults().setSeed(81L)
                    .setLatency(DurationRange.of(Duration.ofMillis(20), Duration.ofMillis(60))),
            () -> SandboxConfig.defaults().setSeed(82L).setDialect(SandboxDialect.DIGIFLAZZ)
                    .setLatency(DurationRange.of(Duration.ofMillis(10), Duration.ofMillis(40))));
    final Path home = product.home();
    final SandboxProvider main = product.sandbox(0);
    final SandboxProvider dfz = product.sandbox(1);
    JarRun a;
    JarRun b;
    /** Each node's process, as {@link JarRun#start} gave it. */
    final Map<JarRun, Process> processes = new HashMap<>();

    @Test
    void each_node_leads_an_account_both_send_at_once_and_the_survivor_takes_over_with_one_order_per_row() throws Exception {
        PostgresServer.Database journal = ProductFixture.postgresDatabase();
        Path map = Files.writeString(home.resolve("product-map.csv"),
                "product,provider,sku\nTSEL10,main,TSEL10\nTSEL10,dfz,TSEL10\nFF100,dfz,FF100\nFF100,main,FF100\n");
        a = node("a", journal, null, map);
        b = node("b", journal, a, map);

        // both start at once; whichever takes the journal lock is active, and the accounts' leads are shared out
        processes.put(a, a.start());
        processes.put(b, b.start());
        await("one node active on the journal, the other standing by", () -> role(a, "a") != null && role(b, "b") != null
                && !role(a, "a").equals(role(b, "b")), a, b);
        await("each node leading one account", () -> {
            Set<String> ofA = led(a);
            Set<String> ofB = led(b);
            return ofA.size() == 1 && ofB.size() == 1 && !ofA.equals(ofB);
        }, a, b);
        JarRun leader = role(a, "a").equals("active") ? a : b;
        JarRun standby = leader == a ? b : a;
        String leaderName = leader == a ? "a" : "b";
        String standbyName = leader == a ? "b" : "a";
        String leaderAccount = led(leader).iterator().next();
        String standbyAccount = led(standby).iterator().next();
        // an operator's status beside the nodes names each account's leader
        String status = status(a);
        assertThat(status).as(status).contains("Accounts: main led by node " + (leaderAccount.equals(MAIN) ? leaderName
                : standbyName) + ", dfz led by node " + (leaderAccount.equals(DFZ) ? leaderName : standbyName));

        a.drop(BATCH + ".csv", AccountsRunE2ETest.mixedBatch("AF-", ROWS));
        // TSEL10 goes down at main once main has some orders, whatever dfz has by then: the node that does
        // not lead main may wait for a turn in main's window to read its balance before its first order
        // (docs/two-nodes.md, "Limits known"), and main's 80 TSEL10 rows may all be out by the time it has one
        await("main's ledger to hold some orders", () -> main.ledger().size() >= 8, leader, standby);
        int ordersAtMainWhenDown = main.ledger().size();
        // the sandbox's config change over HTTP, as an operator (or a script) would do it
        HttpResponse<String> changed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(main.baseUrl() + "/sandbox/config"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"unavailable\": \"TSEL10\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(main.config().describe().get("unavailable")).as(changed.body()).isEqualTo("TSEL10");
        await("both ledgers to hold some orders", () -> main.ledger().size() >= 8 && dfz.ledger().size() >= 8, leader, standby);
        // both nodes sent, each only at the account it leads
        Map<String, Double> leaderOrders = createOrders(metrics(leader));
        Map<String, Double> standbyOrders = createOrders(metrics(standby));

        await("dfz's ledger to hold a few TSEL10 orders moved from main",
                () -> dfz.ledger().stream().filter(e -> e.refId().endsWith("-F2")).count() >= 3, leader, standby);
        boolean reportedBeforeKill = Files.exists(a.reports.resolve(BATCH + ".summary.json"));
        leader.kill(); // SIGKILL: the journal's lock and its account's lead go with it
        int mainAtKill = main.ledger().size();
        int dfzAtKill = dfz.ledger().size();
        long killedAt = System.nanoTime();
        await("node " + standbyName + " to lead both accounts after the kill", () -> led(standby).size() == 2, standby);
        Duration failover = Duration.ofNanos(System.nanoTime() - killedAt);
        await("node " + standbyName + " to report " + BATCH + " with no row pending", () -> finished(a.reports), standby);
        // each account's balance and rate window in the survivor's metrics, labelled with the account
        String metrics = metrics(standby);
        standby.kill(); // the ledgers hold still for the audit
        assertThat(gauge(metrics, "topup_account_balance_rupiah{account=\"dfz\"}")).as(metrics).isEqualTo((double) dfz.balance());
        assertThat(gauge(metrics, "topup_account_balance_rupiah{account=\"main\"}")).as(metrics).isEqualTo((double) main.balance());
        assertThat(gauge(metrics, "topup_account_rate_window_limit{account=\"dfz\"}")).as(metrics).isEqualTo(300.0);

        String outputs = outputs(leaderName, leader, standbyName, standby);
        assertThat(reportedBeforeKill).as("the batch was reported before the kill: nothing was left to take over\n%s",
                outputs).isFalse();
        assertThat(standby.output()).as(outputs).contains("node " + standbyName + " is active on journal")
                .contains("node " + standbyName + " leads account " + leaderAccount);

        List<String> anomalies = new ArrayList<>();
        // before the kill: each node had sent orders at its own account, none at the other's
        for (Map.Entry<String, Map<String, Double>> e : Map.of(leaderName + " (leading " + leaderAccount + ")", leaderOrders,
                standbyName + " (leading " + standbyAccount + ")", standbyOrders).entrySet()) {
            String mine = e.getKey().contains(MAIN + ")") ? MAIN : DFZ;
            String theirs = mine.equals(MAIN) ? DFZ : MAIN;
            if (e.getValue().getOrDefault(mine, 0.0) < 1) {
                anomalies.add("node " + e.getKey() + " had sent no create-order at its account while both ledgers grew: "
                        + e.getValue());
            }
            if (e.getValue().getOrDefault(theirs, 0.0) > 0) {
                anomalies.add("node " + e.getKey() + " sent create-orders at " + theirs + ", which the other node led: "
                        + e.getValue());
            }
        }
        Report report = Report.read(a.reports, BATCH, ',');
        Map<String, LedgerEntry> atMain = ledgerByRef(main, MAIN, anomalies);
        Map<String, LedgerEntry> atDfz = ledgerByRef(dfz, DFZ, anomalies);
        int moved = checkRows(report, Map.of(MAIN, atMain, DFZ, atDfz), anomalies);
        checkSummary(report, atMain, atDfz, anomalies);
        if (main.stats().rateLimited() != 0) {
            anomalies.add("main answered 429 " + main.stats().rateLimited() + " times");
        }
        if (dfz.stats().rateLimited() != 0) {
            anomalies.add("dfz answered 429 " + dfz.stats().rateLimited() + " times");
        }

        long refusedAtMain = main.stats().requestsPerOperation().getOrDefault("create-order", 0L) - atMain.size();
        String figures = String.format("ACCOUNTS FAILOVER (2 nodes, PostgreSQL, one leader per account): %d rows; node %s"
                        + " led %s and node %s led %s; create-orders sent by the time both ledgers grew: node %s %s, node %s %s;"
                        + " TSEL10 down at main after %d orders; node %s (journal and %s) killed at %d orders at main, %d at"
                        + " dfz; failover %d ms (kill to node %s leading both accounts); rows at main %d, at dfz %d, moved"
                        + " as REF-F2 %d; %d create-orders refused at main; 429 answers %d at main, %d at dfz",
                ROWS, leaderName, leaderAccount, standbyName, standbyAccount, leaderName, leaderOrders, standbyName,
                standbyOrders, ordersAtMainWhenDown, leaderName, leaderAccount, mainAtKill, dfzAtKill, failover.toMillis(),
                standbyName, atMain.size(), atDfz.size(), moved, refusedAtMain, main.stats().rateLimited(),
                dfz.stats().rateLimited());
        System.out.println(figures);
        if (moved == 0) {
            anomalies.add("no row moved to its second account as REF-F2");
        }
        if (atMain.size() + atDfz.size() <= mainAtKill + dfzAtKill) {
            anomalies.add("node " + standbyName + " placed no order after the kill");
        }
        assertThat(anomalies).as("%s\n%s", figures, outputs).isEmpty();
    }

    /** {@code java -jar topup-batch.jar status} with the node's settings, as an operator runs it beside the nodes. */
    private static String status(JarRun node) throws IOException, InterruptedException {
        return org.topupbatch.testing.BuiltJar.command(node.env, "status");
    }

    /** The node's metrics scrape. */
    private static String metrics(JarRun node) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + node.env.get("TOPUP_MANAGEMENT_PORT") + "/observe/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The accounts a node leads now, by its {@code topup_account_leader} gauges; empty while it does not answer. */
    private static Set<String> led(JarRun node) {
        try {
            Set<String> led = new HashSet<>();
            for (String account : List.of(MAIN, DFZ)) {
                if (gauge(metrics(node), "topup_account_leader{account=\"" + account + "\"}") == 1.0) {
                    led.add(account);
                }
            }
            return led;
        } catch (IOException | InterruptedException notYet) {
            return Set.of();
        }
    }

    /** create-order calls a node made, by account ({@code topup_provider_calls_total}'s provider label). */
    private static Map<String, Double> createOrders(String scrape) {
        Map<String, Double> byAccount = new java.util.TreeMap<>();
        scrape.lines().filter(l -> l.startsWith("topup_provider_calls_total{") && l.contains("operation=\"create-order\""))
                .forEach(l -> {
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("provider=\"([^\"]*)\"").matcher(l);
                    if (m.find()) {
                        byAccount.merge(m.group(1), Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)), Double::sum);
                    }
                });
        return byAccount;
    }

    /** A gauge's value in a Prometheus scrape; NaN when the scrape has no such line. */
    private static double gauge(String scrape, String series) {
        return scrape.lines().filter(l -> l.startsWith(series + " ")).map(l -> Double.parseDouble(l.substring(series.length()).trim()))
                .findFirst().orElse(Double.NaN);
    }

    /** A node in a home of its own (its log, its management port) on the journal and, for the second, on the first's folders. */
    private JarRun node(String name, PostgresServer.Database journal, JarRun shared, Path map) throws IOException {
        JarRun node = product.node(name);
        node.journalOn(journal);
        if (shared != null) {
            node.env.put("TOPUP_INBOX", shared.inbox.toString());
            node.env.put("TOPUP_REPORTS", shared.reports.toString());
            node.env.put("TOPUP_DATA", shared.data.toString());
        }
        node.env.put("TOPUP_MODE", "watch");
        node.env.put("TOPUP_NODE_NAME", name);
        ProductFixture.twoAccounts(node.env, main, dfz);
        node.env.put("TOPUP_PRODUCT_MAP", map.toString());
        return node;
    }

    /** "active" or "standing by" from the node's log, null before it says. */
    private static String role(JarRun node, String name) {
        String out = node.output();
        if (out.contains("node " + name + " is active on journal")) {
            return "active";
        }
        return out.contains("node " + name + " standing by") ? "standing by" : null;
    }

    /** Reported with every row final. */
    private static boolean finished(Path reports) {
        Path summary = reports.resolve(BATCH + ".summary.json");
        try {
            if (!Files.exists(summary)) {
                return false;
            }
            com.fasterxml.jackson.databind.JsonNode s = new ObjectMapper().readTree(summary.toFile());
            // a held batch's unsent rows are queued (not pending) in its summary: finished is neither
            return s.path("pending").asLong(-1) == 0 && s.path("queued").asLong(0) == 0;
        } catch (IOException halfWritten) {
            return false;
        }
    }

    /** The sandbox's ledger by ref_id; a ref_id in it twice is an anomaly. */
    private static Map<String, LedgerEntry> ledgerByRef(SandboxProvider sandbox, String account, List<String> anomalies) {
        Map<String, LedgerEntry> byRef = new HashMap<>();
        for (LedgerEntry e : sandbox.ledger()) {
            LedgerEntry before = byRef.put(e.refId(), e);
            if (before != null) {
                anomalies.add("ref_id " + e.refId() + " ordered twice at " + account + ": " + before + " and " + e);
            }
        }
        return byRef;
    }

    /**
     * Each row success, with exactly one order across the ledgers (REF at its product's first account xor
     * REF-F2 at its second), named by its provider/provider_ref_id with the order's status, serial and
     * price; every order some row's. Returns the rows moved to their second account.
     */
    private static int checkRows(Report report, Map<String, Map<String, LedgerEntry>> ledgers, List<String> anomalies) {
        List<String> header = report.header();
        int message = header.indexOf("message");
        if (message < 0 || header.indexOf("provider") != message + 1 || header.indexOf("provider_ref_id") != message + 2) {
            anomalies.add("report header without provider, provider_ref_id right after message: " + header);
        }
        if (report.rows().size() != ROWS) {
            anomalies.add("report has " + report.rows().size() + " rows, the batch " + ROWS);
        }
        Map<String, Set<String>> ofRows = new HashMap<>();
        ledgers.keySet().forEach(account -> ofRows.put(account, new HashSet<>()));
        Set<String> refs = new HashSet<>();
        int moved = 0;
        for (Map<String, String> row : report.rows()) {
            String ref = row.get("ref_id");
            String fallback = ref + "-F2";
            String where = "line " + row.get("line") + " " + ref + " " + row;
            List<String> route = ROUTES.get(row.get("product_sku"));
            if (!refs.add(ref)) {
                anomalies.add(where + ": reported twice");
            }
            if (route == null) {
                anomalies.add(where + ": a product the test does not send");
                continue;
            }
            String first = route.get(0);
            String second = route.get(1);
            ofRows.get(first).add(ref);
            ofRows.get(second).add(fallback);
            if (!"success".equals(row.get("status"))) {
                anomalies.add(where + ": not success");
            }
            boolean firstHas = ledgers.get(first).containsKey(ref);
            boolean secondHas = ledgers.get(second).containsKey(fallback);
            if (firstHas == secondHas) {
                anomalies.add(where + ": " + (firstHas ? "ordered at both, " + ledgers.get(first).get(ref) + " and "
                        + ledgers.get(second).get(fallback) : "ordered at neither " + first + " (as " + ref + ") nor "
                        + second + " (as " + fallback + ")"));
            }
            if (ledgers.get(second).containsKey(ref)) {
                anomalies.add(where + ": ordered at " + second + " under its own ref_id: " + ledgers.get(second).get(ref));
            }
            if (secondHas) {
                moved++;
            }
            String account = row.get("provider");
            String providerRef = row.get("provider_ref_id");
            LedgerEntry order = ledgers.containsKey(account) ? ledgers.get(account).get(providerRef) : null;
            if (order == null) {
                anomalies.add(where + ": its provider " + account + " has no order " + providerRef);
            } else {
                if (!(first.equals(account) ? ref : fallback).equals(providerRef)) {
                    anomalies.add(where + ": provider_ref_id " + providerRef + " at " + account);
                }
                if (!order.status().equals(row.get("status"))) {
                    anomalies.add(where + ": the order at " + account + " is " + order.status());
                }
                String serial = order.serialNumber() == null ? "" : order.serialNumber();
                if (!serial.equals(row.get("serial_number"))) {
                    anomalies.add(where + ": serial at " + account + " is " + serial);
                }
                if (!Long.toString(order.price()).equals(row.get("price"))) {
                    anomalies.add(where + ": price at " + account + " is " + order.price());
                }
                if (!order.productSku().equals(row.get("product_sku")) || !order.customerNo().equals(row.get("customer_no"))) {
                    anomalies.add(where + ": the order at " + account + " is for " + order.productSku() + " " + order.customerNo());
                }
            }
        }
        ledgers.forEach((account, orders) -> {
            for (String ref : orders.keySet()) {
                if (!ofRows.get(account).contains(ref)) {
                    anomalies.add("order " + ref + " at " + account + " is no row's: " + orders.get(ref));
                }
            }
        });
        return moved;
    }

    /** The summary's totals and its {@code accounts} against the report and the ledgers. */
    private static void checkSummary(Report report, Map<String, LedgerEntry> atMain, Map<String, LedgerEntry> atDfz,
                                     List<String> anomalies) {
        JsonNode s = report.summary();
        for (String field : List.of("rows", "success")) {
            if (s.path(field).asLong(-1) != ROWS) {
                anomalies.add("summary " + field + " is " + s.path(field) + ", not " + ROWS + ": " + s);
            }
        }
        for (String field : List.of("pending", "rejected", "failed")) {
            if (s.path(field).asLong(-1) != 0) {
                anomalies.add("summary " + field + " is " + s.path(field) + ", not 0: " + s);
            }
        }
        JsonNode accounts = s.path("accounts");
        if (!accounts.isObject()) {
            anomalies.add("summary without an accounts object: " + s);
            return;
        }
        Set<String> names = new HashSet<>();
        accounts.fieldNames().forEachRemaining(names::add);
        if (!names.equals(Set.of(MAIN, DFZ))) {
            anomalies.add("summary accounts " + names + ", not main and dfz: " + s);
        }
        long charges = 0;
        for (Map.Entry<String, Map<String, LedgerEntry>> e : Map.of(MAIN, atMain, DFZ, atDfz).entrySet()) {
            String account = e.getKey();
            JsonNode at = accounts.path(account);
            long ledgerSuccess = e.getValue().values().stream().filter(o -> o.status().equals("success")).count();
            long reported = report.rows().stream().filter(r -> account.equals(r.get("provider"))).count();
            long charged = e.getValue().values().stream()
                    .filter(o -> o.status().equals("success") || o.status().equals("pending")).mapToLong(LedgerEntry::price).sum();
            if (at.path("success").asLong(-1) != ledgerSuccess || ledgerSuccess != reported) {
                anomalies.add("accounts." + account + ".success " + at.path("success") + ", its ledger " + ledgerSuccess
                        + " successes, the report " + reported + " rows: " + s);
            }
            if (at.path("pending").asLong(-1) != 0) {
                anomalies.add("accounts." + account + ".pending " + at.path("pending") + ": " + s);
            }
            if (at.path("charged").asLong(-1) != charged) {
                anomalies.add("accounts." + account + ".charged " + at.path("charged") + ", its ledger " + charged + ": " + s);
            }
            if (at.path("submitted").asLong(-1) != at.path("success").asLong() + at.path("failed").asLong()
                    + at.path("pending").asLong()) {
                anomalies.add("accounts." + account + ".submitted is not success + failed + pending: " + s);
            }
            if (account.equals(DFZ) && at.path("failed").asLong(-1) != 0) {
                // main's refused create-orders (moved on to dfz) may count there as failed; dfz refused none
                anomalies.add("accounts.dfz.failed " + at.path("failed") + ": " + s);
            }
            charges += at.path("charged").asLong();
        }
        if (charges != s.path("charged").asLong(-1)) {
            anomalies.add("the accounts' charges add up to " + charges + ", the summary's charged is " + s.path("charged"));
        }
    }

    private static String outputs(String leaderName, JarRun leader, String standbyName, JarRun standby) {
        return "---- node " + leaderName + " (the leader, killed):\n" + leader.output()
                + "\n---- node " + standbyName + " (the standby):\n" + standby.output();
    }

    /** Waits for a condition; fails with both nodes' output when one of {@code watched} dies or the wait overruns. */
    private void await(String what, BooleanSupplier condition, JarRun... watched) {
        boolean met = Poll.atMost(STEP_LIMIT, condition::getAsBoolean,
                done -> done || java.util.Arrays.stream(watched).anyMatch(n -> !alive(n)));
        if (met) {
            return;
        }
        String outputs = "---- node a:\n" + a.output() + "\n---- node b:\n" + b.output();
        for (JarRun n : new JarRun[] {a, b}) { // a stuck node: its threads and metrics tell why
            try {
                Process p = new ProcessBuilder("jcmd", Long.toString(processes.get(n).pid()), "Thread.print").redirectErrorStream(true).start();
                outputs += "\n---- THREADS " + (n == a ? "a" : "b") + "\n" + new String(p.getInputStream().readAllBytes());
                outputs += "\n---- METRICS " + (n == a ? "a" : "b") + "\n" + metrics(n).lines().filter(l -> l.startsWith("topup_")).collect(java.util.stream.Collectors.joining("\n"));
            } catch (Exception e) {
                outputs += e;
            }
        }
        for (JarRun node : watched) {
            if (!alive(node)) {
                throw new AssertionError("node " + (node == a ? "a" : "b") + " died while waiting for " + what + "\n" + outputs);
            }
        }
        throw new AssertionError("no " + what + " within " + STEP_LIMIT.toSeconds() + " s\n" + outputs);
    }

    private boolean alive(JarRun node) {
        Process p = processes.get(node);
        return p != null && p.isAlive();
    }
}
