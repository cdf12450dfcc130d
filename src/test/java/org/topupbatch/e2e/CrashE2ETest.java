package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxTier;
import org.topupbatch.testing.Poll;

/**
 * The process is killed with SIGKILL in the middle of submitting; a new one resumes. Nothing may
 * be ordered twice or lost, and the restart may not burst past the rate limit. On H2: the crash
 * campaign (CrashCampaignE2ETest) kills runs on both journals, PostgreSQL included, and audits the
 * same (nothing lost or doubled, no 429, the busiest window within the limit); this test is the
 * sharp case of the rate budget across a kill, and at the basic tier's 60 a minute it is slow (about
 * 70 s a journal), so it runs once, on the default journal.
 */
class CrashE2ETest {

    // Basic tier (60 a minute, one a second): the first run's requests are still in the window
    // and in the pace when it dies; a restart that forgot them would burst and overrun both.
    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults()
            .setTier(SandboxTier.BASIC)
            .setLatency(DurationRange.of(Duration.ofMillis(40), Duration.ofMillis(200)))
            .setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofSeconds(2)))).sendingWebhooks();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    @Test
    void a_killed_run_resumes_without_ordering_twice_losing_an_order_or_bursting() throws Exception {
        int rows = 40;
        run.drop("big.csv", BatchFlowE2ETest.plainFile("K-", rows));

        run.env.put("TOPUP_MODE", "watch");
        run.start();
        Poll.atMost(Duration.ofSeconds(60), () -> sandbox.ledger().size(), placed -> placed >= 15);
        run.kill();
        int before = sandbox.ledger().size();
        assertThat(before).as("orders placed before the kill\n" + run.output()).isBetween(15, rows - 1);

        int exit = run.runOnce(Duration.ofMinutes(4));

        assertThat(exit).as(run.output()).isZero();
        Report report = Report.read(run.reports, "big", ',');
        assertThat(report.rows()).hasSize(rows);
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(sandbox.ledger()).hasSize(rows);
        assertThat(sandbox.stats().busiestWindow()).isLessThanOrEqualTo(60);
    }
}
