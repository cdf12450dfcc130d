package org.topupbatch.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The customer's voucher in the journal on PostgreSQL: the shared embedded server, a fresh database per test. */
class PostgresCustomerVoucherTest extends CustomerVoucherContractTest {

    @RegisterExtension
    final FreshPostgresJournal postgres = new FreshPostgresJournal();

    @Override
    protected JdbcJournal open() {
        return postgres.open();
    }
}
