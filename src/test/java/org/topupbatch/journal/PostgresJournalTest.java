package org.topupbatch.journal;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The journal contract on PostgreSQL: one embedded server (binaries from the Maven artifact,
 * bound to localhost) for the class, a fresh database per test. Skipped, saying why, where the
 * server cannot start.
 */
class PostgresJournalTest extends JournalContractTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;
    private static String startFailure;

    @TempDir
    Path data;

    private String url;

    @BeforeAll
    static void startServer() {
        try {
            server = EmbeddedPostgres.start();
        } catch (Exception | LinkageError e) {
            startFailure = e.toString();
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    @BeforeEach
    void openJournal() {
        Assumptions.assumeTrue(server != null, () -> "embedded PostgreSQL could not start here: " + startFailure);
        String name = "journal_" + DATABASES.incrementAndGet();
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        url = server.getJdbcUrl("postgres", name);
        super.openJournal();
    }

    @Override
    @AfterEach
    void closeJournal() {
        if (journal != null) {
            super.closeJournal();
        }
    }

    @Override
    protected JdbcJournal open() {
        return JdbcJournal.open(data, url, "postgres", "postgres");
    }
}
