package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fault matrix on a PostgreSQL journal (an embedded server per case; one that cannot start
 * fails the case, never skips it), plus the one fault only a database server has: a restart mid-batch.
 * Three cases run on H2 only ({@link FaultMatrixE2ETest}), for the suite's time: a reports folder that
 * cannot be written and forged webhooks (their fault never reaches the journal: refused before any
 * look-up), and a 429 storm (the rate budget's pauses are the same on either journal; every case here
 * journals its calls on PostgreSQL). They are overridden here without {@code @Test}, so JUnit does not
 * run them on this class.
 */
class FaultMatrixPostgresE2ETest extends FaultMatrix {

    @Override
    void the_reports_folder_read_only_for_a_while() {
        // H2 only: the reports folder is the same whatever journal the run keeps
    }

    @Override
    void forged_and_garbage_webhooks_settle_nothing() {
        // H2 only: a forged webhook is refused before the journal is asked
    }

    @Override
    void a_429_storm() {
        // H2 only: the rate budget backs off alike on either journal
    }

    @Override
    CampaignJournal journal(String caseName) throws IOException {
        return CampaignJournal.postgres(home.resolve("postgres-" + caseName));
    }

    @Test
    void the_postgresql_journal_restarted_mid_batch() throws Exception {
        CampaignJournal journal = journal("dbrestart");
        runCase("dbrestart", journal, Map.of(), null, (sandbox, product, batch, relay) -> {
            long accepted = batch.acceptedByRef().values().stream().filter(Boolean::booleanValue).count();
            int orderedBefore = sandbox.ledger().size();
            journal.restart();
            boolean runningAfter = product.alive();
            return () -> {
                // mid-batch: the batch was not all ordered when the server went down, and the run outlived the restart
                assertThat((long) orderedBefore).as("orders created before the restart, of " + accepted + " accepted rows")
                        .isLessThan(accepted);
                assertThat(runningAfter).as("the run still going when the journal server was back").isTrue();
                return "restarted with " + orderedBefore + " of " + accepted + " accepted rows ordered, the run still going";
            };
        });
    }
}
