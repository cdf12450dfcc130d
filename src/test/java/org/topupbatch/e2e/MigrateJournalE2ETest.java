package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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
    final ProductFixture product = ProductFixture.on(SandboxConfig::defaults).sendingWebhooks();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    @Test
    void a_journal_moved_to_postgresql_still_refuses_the_ref_ids_it_ordered_on_h2() throws Exception {
        String content = BatchFlowE2ETest.plainFile("MV-", 8);
        run.drop("daily.csv", content);
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        List<LedgerEntry> ordered = sandbox.ledger();
        assertThat(ordered).hasSize(8);

        PostgresServer.Database database = ProductFixture.postgresDatabase();
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
