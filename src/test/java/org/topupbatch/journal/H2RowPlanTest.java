package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row's state changes by its id (marking it SENDING, settling it) must go through the primary
 * key on a fresh H2 journal. H2 has not analysed a new journal, takes {@code state} as selective and
 * plans these updates through the (state, ...) indexes, which scans every ACCEPTED row: during the
 * commit of a 200,000-row intake each markSending took 230-820 ms, and pooled connections kept
 * the plan afterwards (BENCHMARKS.md, "Intake on the user's path").
 */
class H2RowPlanTest {

    @TempDir
    Path data;

    @Test
    void aRowsStateChangeByItsIdUsesThePrimaryKeyOnAFreshJournal() throws Exception {
        try (HikariDataSource journal = JournalDataSource.open(data, null, null, null);
             Connection c = journal.getConnection(); Statement s = c.createStatement();
             ResultSet plan = s.executeQuery("EXPLAIN UPDATE batch_row SET state = 'SENDING', sent_at = NULL,"
                     + " updated_at = NULL WHERE id = 1 AND state = 'ACCEPTED'")) {
            assertThat(plan.next()).isTrue();
            assertThat(plan.getString(1)).as("H2's plan").contains("PRIMARY_KEY").doesNotContain("IX_BATCH_ROW_");
        }
    }
}
