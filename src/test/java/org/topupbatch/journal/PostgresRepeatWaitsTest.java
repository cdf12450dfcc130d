package org.topupbatch.journal;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.PostgresServer;

/** The repeat guard's waiting rows on PostgreSQL: one embedded server for the class, a fresh database per test. */
class PostgresRepeatWaitsTest extends RepeatWaitsContractTest {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @TempDir
    Path data;

    private PostgresServer.Database database;

    @Override
    @BeforeEach
    void openJournal() {
        database = POSTGRES.createDatabase();
        super.openJournal();
    }

    @Override
    protected JdbcJournal open() {
        return JdbcJournal.open(data, database.url(), database.user(), database.password());
    }
}
