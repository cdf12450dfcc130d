package org.topupbatch.journal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The set-up the journal contracts share: each test opens the subclass's database (H2 file,
 * PostgreSQL) and closes it after. A contract calls {@link #open()} again to see what survives a restart.
 */
abstract class JournalPerTest {

    protected JdbcJournal journal;

    /** Opens the test's database; called again after {@link JdbcJournal#close()} it must open the same one. */
    protected abstract JdbcJournal open();

    @BeforeEach
    void openJournal() {
        journal = open();
    }

    @AfterEach
    void closeJournal() {
        journal.close();
    }
}
