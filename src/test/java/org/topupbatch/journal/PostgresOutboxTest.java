package org.topupbatch.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The outbox on PostgreSQL: the shared embedded server, a fresh database per test. */
class PostgresOutboxTest extends OutboxContractTest {

    @RegisterExtension
    final FreshPostgresJournal postgres = new FreshPostgresJournal();

    @Override
    protected JdbcJournal open() {
        return postgres.open();
    }
}
