package org.topupbatch.journal;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The kept price lists on the default database: embedded H2, file mode, in a fresh folder per test. */
class H2PriceListTest extends PriceListKeepingContractTest {

    @TempDir
    Path data;

    @Override
    protected JdbcJournal open() {
        return JdbcJournal.open(data, "", null, null);
    }
}
