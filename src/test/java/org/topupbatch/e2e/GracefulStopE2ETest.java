package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * SIGTERM in the middle of a batch (what systemd and docker send): the run lets the requests on
 * the wire finish, journals their outcomes, takes no new row, and exits promptly and quietly;
 * the next start picks up where it stopped with nothing to reconcile.
 */
class GracefulStopE2ETest {

    /** What a JVM stopped by SIGTERM exits with (128 + 15). */
    static final int SIGTERM_EXIT = 143;

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final java.nio.file.Path home = product.home();
    final JarRun run = product.run();
    SandboxProvider sandbox;

    @Test
    void sigterm_mid_batch_finishes_what_was_sent_and_leaves_nothing_to_reconcile() throws Exception {
        sandbox = product.startSandbox(SandboxConfig.defaults()
                .setLatency(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(800)))
                .setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofSeconds(2)))
                .setWebhookUrl("http://127.0.0.1:" + run.webhookPort() + "/webhook"));
        run.provider(sandbox.baseUrl());
        int rows = 100;
        run.drop("big.csv", BatchFlowE2ETest.plainFile("G-", rows));

        Process process = run.start();
        Poll.atMost(Duration.ofSeconds(90), () -> sandbox.ledger().size(), placed -> placed >= 20 || !process.isAlive());
        assertThat(sandbox.ledger().size()).as("orders placed before the stop\n" + run.output()).isBetween(20, rows - 1);

        process.destroy(); // SIGTERM
        boolean ended = process.waitFor(30, TimeUnit.SECONDS); // requests on the wire finish first; a loaded CI machine is slow
        String output = run.output();
        assertThat(ended).as("stopped within a few seconds; output:\n" + output).isTrue();
        assertThat(process.exitValue()).as(output).isEqualTo(SIGTERM_EXIT);
        assertThat(output).containsPattern("Stopped on request: \\d+ requests? finished, nothing left in flight");
        assertThat(output.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).toList())
                .as("no warning about in-flight exchanges or anything else while stopping")
                .noneMatch(l -> l.toLowerCase().contains("inflight") || l.contains("DefaultShutdownStrategy")
                        || l.contains("ExecutorService"));
        StartupRefusalE2ETest.assertNoStackTrace(output);
        int placed = sandbox.ledger().size();
        assertThat(placed).as("the stop took no new row").isLessThan(rows);

        try (JdbcJournal journal = JdbcJournal.open(run.data, null, null, null)) {
            assertThat(journal.submission().rowsInState(EnumSet.of(RowState.SENDING), rows)).as("rows left in SENDING").isEmpty();
        }

        assertThat(run.runOnce(Duration.ofMinutes(4))).as(run.output()).isZero();
        assertThat(run.output()).doesNotContain("were being sent when the last run stopped");
        Report report = Report.read(run.reports, "big", ',');
        assertThat(report.rows()).hasSize(rows);
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(sandbox.ledger()).as("every row ordered exactly once").hasSize(rows);
    }
}
