package org.topupbatch.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The repeat guard's waiting rows on PostgreSQL: the shared embedded server, a fresh database per test. */
class PostgresRepeatWaitsTest extends RepeatWaitsContractTest {

    @RegisterExtension
    final FreshPostgresJournal postgres = new FreshPostgresJournal();

    @Override
    protected JdbcJournal open() {
        return postgres.open();
    }
}
