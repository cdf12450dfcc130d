package org.topupbatch.journal;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The repeat guard's waiting rows on embedded H2, file mode, in a fresh folder per test. */
class H2RepeatWaitsTest extends RepeatWaitsContractTest {

    @TempDir
    Path data;

    @Override
    protected JdbcJournal open() {
        return JdbcJournal.open(data, "", null, null);
    }
}
