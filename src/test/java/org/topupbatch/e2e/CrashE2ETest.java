package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxTier;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.PostgresServer;

/**
 * The process is killed with SIGKILL in the middle of submitting; a new one resumes. Nothing may
 * be ordered twice or lost, and the restart may not burst past the rate limit. On both journal
 * databases (PostgreSQL: one embedded server for the class).
 */
class CrashE2ETest {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @TempDir
    Path home;
    SandboxProvider sandbox;
    JarRun run;

    @AfterEach
    void stop() throws Exception {
        if (run != null) {
            run.kill();
        }
        if (sandbox != null) {
            sandbox.close();
        }
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void a_killed_run_resumes_without_ordering_twice_losing_an_order_or_bursting(JournalDatabase journal) throws Exception {
        run = new JarRun(home).journalOn(journal, POSTGRES);
        // Basic tier (60 a minute): the first run spends most of its window before it dies, so a
        // restart that forgot those requests would be answered 429.
        sandbox = SandboxProvider.start(SandboxConfig.defaults()
                .setTier(SandboxTier.BASIC)
                .setLatency(DurationRange.of(Duration.ofMillis(40), Duration.ofMillis(200)))
                .setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofSeconds(2)))
                .setWebhookUrl("http://127.0.0.1:" + run.webhookPort() + "/webhook"), 0);
        run.provider(sandbox.baseUrl());
        int rows = 70;
        run.drop("big.csv", BatchFlowE2ETest.plainFile("K-", rows));

        run.env.put("TOPUP_MODE", "watch");
        run.start();
        Poll.atMost(Duration.ofSeconds(60), () -> sandbox.ledger().size(), placed -> placed >= 25);
        run.kill();
        int before = sandbox.ledger().size();
        assertThat(before).as("orders placed before the kill\n" + run.output()).isBetween(25, rows - 1);

        int exit = run.runOnce(Duration.ofMinutes(4));

        assertThat(exit).as(run.output()).isZero();
        Report report = Report.read(run.reports, "big", ',');
        assertThat(report.rows()).hasSize(rows);
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(sandbox.ledger()).hasSize(rows);
        assertThat(sandbox.stats().busiestWindow()).isLessThanOrEqualTo(60);
        assertThat(run.rowsJournaledFor("big.csv")).isEqualTo(journal == JournalDatabase.POSTGRESQL ? rows : 0);
    }
}
