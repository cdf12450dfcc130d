package org.topupbatch.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The journal contract on PostgreSQL: the shared embedded server, a fresh database per
 * test. A server that cannot start fails these tests (see testing.PostgresServer).
 */
class PostgresJournalTest extends JournalContractTest {

    @RegisterExtension
    final FreshPostgresJournal postgres = new FreshPostgresJournal();

    @Override
    protected JdbcJournal open() {
        return postgres.open();
    }
}
