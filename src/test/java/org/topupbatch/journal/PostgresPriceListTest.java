package org.topupbatch.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The kept price lists on PostgreSQL: the shared embedded server, a fresh database per test. */
class PostgresPriceListTest extends PriceListKeepingContractTest {

    @RegisterExtension
    final FreshPostgresJournal postgres = new FreshPostgresJournal();

    @Override
    protected JdbcJournal open() {
        return postgres.open();
    }
}
