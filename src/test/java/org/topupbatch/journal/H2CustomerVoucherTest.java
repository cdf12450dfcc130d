package org.topupbatch.journal;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The customer's voucher in the journal on embedded H2 (file mode), a fresh folder per test. */
class H2CustomerVoucherTest extends CustomerVoucherContractTest {

    @TempDir
    Path data;

    @Override
    protected JdbcJournal open() {
        return JdbcJournal.open(data, "", null, null);
    }
}
