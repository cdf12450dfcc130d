package org.topupbatch.provider;

import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.JdbcJournal;

/** The rate budget across a restart on the default journal: embedded H2, file mode. */
class RateBudgetRestartH2Test extends RateBudgetRestartTest {

    @TempDir
    Path data;

    @Override
    protected JdbcJournal open(Clock clock) {
        return JdbcJournal.open(data, "", null, null, clock);
    }
}
