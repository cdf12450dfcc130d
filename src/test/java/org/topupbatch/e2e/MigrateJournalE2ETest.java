package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.PostgresServer;

/**
 * A user's move from H2 to PostgreSQL with the built jar: a batch ordered on H2,
 * {@code migrate-journal}, then the same file dropped again on PostgreSQL orders nothing.
 */
class MigrateJournalE2ETest {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @TempDir
    Path home;
    SandboxProvider sandbox;
    JarRun run;

    @AfterEach
    void stop() throws Exception {
        run.kill();
        sandbox.close();
    }

    @Test
    void a_journal_moved_to_postgresql_still_refuses_the_ref_ids_it_ordered_on_h2() throws Exception {
        run = new JarRun(home);
        sandbox = SandboxProvider.start(SandboxConfig.defaults()
                .setWebhookUrl("http://127.0.0.1:" + run.webhookPort() + "/webhook"), 0);
        run.provider(sandbox.baseUrl());
        String content = BatchFlowE2ETest.plainFile("MV-", 8);
        run.drop("daily.csv", content);
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        List<LedgerEntry> ordered = sandbox.ledger();
        assertThat(ordered).hasSize(8);

        PostgresServer.Database database = POSTGRES.createDatabase();
        run.env.put("MOVE_PASSWORD", "pw-never-shown-41");
        Process move = run.start("migrate-journal", "--to", database.url(), "--user", database.user(),
                "--password-env", "MOVE_PASSWORD");
        assertThat(move.waitFor(2, TimeUnit.MINUTES)).as(run.output()).isTrue();
        assertThat(move.exitValue()).as(run.output()).isZero();
        assertThat(run.output()).contains("batch_row: 8 rows", "verified").doesNotContain("pw-never-shown-41");

        run.journalOn(database);
        run.drop("daily.csv", content);
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();

        assertThat(sandbox.ledger()).isEqualTo(ordered);
        Report again = Report.read(run.reports, "daily", ',');
        assertThat(again.rows()).hasSize(8).allSatisfy(r -> {
            assertThat(r.get("status")).isEqualTo("rejected");
            assertThat(r.get("message")).containsIgnoringCase("already submitted");
        });
        assertThat(run.rowsJournaledFor("daily.csv")).isEqualTo(16);
    }
}
