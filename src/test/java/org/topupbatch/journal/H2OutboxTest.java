package org.topupbatch.journal;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The outbox on the default database: embedded H2, file mode, in a fresh folder per test. */
class H2OutboxTest extends OutboxContractTest {

    @TempDir
    Path data;

    @Override
    protected JdbcJournal open() {
        return JdbcJournal.open(data, "", null, null);
    }
}
