package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
import org.topupbatch.testing.PostgresServer;

/**
 * The price list through a restart (docs/batch-files-and-reports.md#price-list, issue 32): two accounts as in
 * {@link AccountsRunE2ETest}, {@code dfz} (Digiflazz, preferred: first in topup.providers, and cheaper)
 * and {@code main} (the default dialect, asking 10% more for TSEL10). The dfz sandbox refuses a full
 * price list within its interval with rc 83, as Digiflazz does (once every 5 minutes).
 *
 * <ul>
 *   <li>A restart within that interval starts from the list the first run kept in the journal: its
 *       first order at dfz comes within the restart figures of a single account (measured here too),
 *       and no row goes to the dearer account. On H2.</li>
 *   <li>A restart whose kept list is past its cache time while dfz refuses every full list: the refusal
 *       keeps the kept list in use, the rows still go to dfz. On PostgreSQL.</li>
 * </ul>
 */
class PriceListRestartE2ETest {

    static final String MAIN = AccountsRunE2ETest.MAIN;
    static final String DFZ = AccountsRunE2ETest.DFZ;
    static final Duration RUN_LIMIT = Duration.ofSeconds(90);

    // dfz first: where every row is meant to go
    @RegisterExtension
    final ProductFixture product = ProductFixture.onTwoAccounts(
            () -> SandboxConfig.defaults().setSeed(91L).setPriceChange("TSEL10:+10%")
                    .setLatency(DurationRange.of(Duration.ofMillis(10), Duration.ofMillis(40))),
            () -> SandboxConfig.defaults().setSeed(92L).setDialect(SandboxDialect.DIGIFLAZZ)
                    .setPriceListInterval(Duration.ofMinutes(5))
                    .setLatency(DurationRange.of(Duration.ofMillis(10), Duration.ofMillis(40))))
            .env("TOPUP_PROVIDERS", DFZ + "," + MAIN);
    final Path home = product.home();
    final SandboxProvider main = product.sandbox(0);
    final SandboxProvider dfz = product.sandbox(1);
    final JarRun run = product.run();
    JarRun single;

    @Test
    void a_restart_within_digiflazzs_interval_orders_there_within_seconds_and_moves_no_row() throws Exception {
        firstRun();
        long dfzListsBefore = priceLists(dfz);

        Duration toFirstOrder = restartAndTimeFirstOrder(run, dfz, "second.csv", "P2-", 12);
        String out = run.output();
        assertEveryRowAtDfz("second", "P2-", 12, out);
        assertThat(priceLists(dfz)).as("the kept list is within its cache time: dfz is not asked; output:\n%s", out)
                .isEqualTo(dfzListsBefore);
        assertThat(out).as(out).contains("Price list of account dfz:").contains("kept from");

        // a single account's restart, for comparison: the same jar, one provider, a journal of its own
        single = product.node("single").provider(main.baseUrl());
        single.env.put("TOPUP_WEBHOOK_PORT", "0");
        single.drop("warm.csv", AccountsRunE2ETest.telkomselBatch("S1-", 3));
        assertThat(single.runOnce(RUN_LIMIT)).as(single.output()).isZero();
        Duration singleToFirstOrder = restartAndTimeFirstOrder(single, main, "single.csv", "S2-", 12);

        System.out.printf("PRICE LIST RESTART: first order at dfz %d ms after the restart (kept list, %d price-list"
                        + " requests at dfz in all); a single account's restart: first order after %d ms%n",
                toFirstOrder.toMillis(), priceLists(dfz), singleToFirstOrder.toMillis());
        // the figure was five minutes; a restart here is a JVM start plus the intake, both load-bound
        assertThat(toFirstOrder).as("to the first order at dfz vs a single account's %s ms; output:\n%s",
                singleToFirstOrder.toMillis(), out).isLessThan(singleToFirstOrder.multipliedBy(2).plusSeconds(15));
    }

    @Test
    void a_refused_read_after_a_restart_keeps_the_kept_list_and_moves_no_row() throws Exception {
        PostgresServer.Database database = ProductFixture.postgresDatabase();
        run.journalOn(database);
        firstRun();
        // the kept lists read 10 minutes ago (past the 5-minute cache time, within the 30-minute maximum
        // age), and dfz refusing every full list now, as when another process read it moments ago
        int aged;
        try (Connection c = database.connect(); Statement s = c.createStatement()) {
            aged = s.executeUpdate("UPDATE price_list SET read_at = read_at - 600000");
        }
        dfz.config().setPriceListInterval(Duration.ofHours(1));
        long dfzListsBefore = priceLists(dfz);

        Duration toFirstOrder = restartAndTimeFirstOrder(run, dfz, "second.csv", "R2-", 12);
        String out = run.output();
        assertEveryRowAtDfz("second", "R2-", 12, out);
        assertThat(aged).as("both accounts' lists were kept by the first run").isEqualTo(2);
        assertThat(priceLists(dfz)).as("dfz was asked and refused (rc 83); output:\n%s", out)
                .isGreaterThan(dfzListsBefore);
        assertThat(out).as(out).contains("Price list of account dfz could not be read").contains("RC_83")
                .contains("stays in use");
        System.out.printf("PRICE LIST REFUSED AFTER A RESTART (postgresql): first order at dfz %d ms after the restart;"
                + " %d price-list requests refused there%n", toFirstOrder.toMillis(), priceLists(dfz) - dfzListsBefore);
    }

    /** Five rows, all at dfz: both accounts' lists read (and kept). */
    private void firstRun() throws Exception {
        run.drop("first.csv", AccountsRunE2ETest.telkomselBatch("P1-", 5));
        int exit = run.runOnce(RUN_LIMIT);
        assertThat(exit).as("first run; its output:\n%s", run.output()).isZero();
        assertThat(refsAt(dfz, "P1-")).as(run.output()).hasSize(5);
    }

    /**
     * Drops a batch, starts the jar (once mode) and returns the time from the start to the first order of
     * the batch at {@code provider}; waits for the run's clean end.
     */
    private static Duration restartAndTimeFirstOrder(JarRun jar, SandboxProvider provider, String file, String prefix,
                                                     int rows) throws Exception {
        jar.drop(file, AccountsRunE2ETest.telkomselBatch(prefix, rows));
        jar.env.put("TOPUP_MODE", "once");
        long started = System.nanoTime();
        Process p = jar.start();
        Poll.until("the first order of " + file + " at " + provider.baseUrl(), RUN_LIMIT,
                () -> refsAt(provider, prefix).size(), n -> n > 0 || !p.isAlive(), jar::output);
        Duration toFirst = Duration.ofNanos(System.nanoTime() - started);
        if (!p.waitFor(RUN_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the run did not end within " + RUN_LIMIT + "; its output:\n" + jar.output());
        }
        assertThat(p.exitValue()).as("exit code; the run's output:\n%s", jar.output()).isZero();
        assertThat(refsAt(provider, prefix)).as("%s ordered at %s; output:\n%s", file, provider.baseUrl(), jar.output())
                .isNotEmpty();
        return toFirst;
    }

    /** Every row of the batch ordered once at dfz at dfz's price, none at main, and reported so. */
    private void assertEveryRowAtDfz(String batch, String prefix, int rows, String out) throws Exception {
        Map<String, LedgerEntry> atDfz = refsAt(dfz, prefix);
        Map<String, LedgerEntry> atMain = refsAt(main, prefix);
        Report report = Report.read(run.reports, batch, ',');
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(atMain).as("rows bought at the dearer account; output:\n" + out).isEmpty();
        soft.assertThat(atDfz).as("rows at dfz; output:\n" + out).hasSize(rows);
        soft.assertThat(report.rows()).as(out).hasSize(rows);
        for (Map<String, String> row : report.rows()) {
            soft.assertThat(row.get("status")).as(row + "\n" + out).isEqualTo("success");
            soft.assertThat(row.get("provider")).as(row + "\n" + out).isEqualTo(DFZ);
            LedgerEntry order = atDfz.get(row.get("ref_id"));
            if (order != null) {
                soft.assertThat(row.get("price")).as(row + "\n" + out).isEqualTo(Long.toString(order.price()));
            }
        }
        soft.assertThat(dfz.stats().rateLimited()).as("429 answers at dfz; output:\n" + out).isZero();
        soft.assertAll();
    }

    /** The sandbox's orders whose ref_id starts with the prefix, by ref_id; none twice. */
    private static Map<String, LedgerEntry> refsAt(SandboxProvider provider, String prefix) {
        List<LedgerEntry> orders = provider.ledger().stream().filter(e -> e.refId().startsWith(prefix)).toList();
        Map<String, LedgerEntry> byRef = orders.stream().collect(Collectors.toMap(LedgerEntry::refId, e -> e));
        assertThat(byRef).as("no ref_id twice at %s", provider.baseUrl()).hasSize(orders.size());
        return byRef;
    }

    /** Price-list requests the sandbox received (answered or refused). */
    private static long priceLists(SandboxProvider provider) {
        return provider.stats().requestsPerOperation().getOrDefault("price-list", 0L);
    }
}
