package org.topupbatch.campaign;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fault matrix on a PostgreSQL journal (an embedded server per case; one that cannot start
 * fails the case, never skips it), plus the one fault only a database server has: a restart mid-batch.
 */
class FaultMatrixPostgresE2ETest extends FaultMatrix {

    @Override
    CampaignJournal journal(String caseName) throws IOException {
        return CampaignJournal.postgres(home.resolve("postgres-" + caseName));
    }

    @Test
    void the_postgresql_journal_restarted_mid_batch() throws Exception {
        CampaignJournal journal = journal("dbrestart");
        runCase("dbrestart", journal, Map.of(), null, (sandbox, product, batch) -> journal.restart());
    }
}
