package org.topupbatch.journal;

import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The journal contract on the default database: embedded H2, file mode, in a fresh folder per test. */
class H2JournalTest extends JournalContractTest {

    @TempDir
    Path data;

    @Override
    protected JdbcJournal open() {
        return JdbcJournal.open(data, "", null, null);
    }
}
