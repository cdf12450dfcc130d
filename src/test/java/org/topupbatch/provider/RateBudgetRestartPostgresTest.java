package org.topupbatch.provider;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.JdbcJournal;

/**
 * The rate budget across a restart on PostgreSQL: one embedded server for the class, a fresh
 * database per test. A server that cannot start fails the class; it is never skipped.
 */
class RateBudgetRestartPostgresTest extends RateBudgetRestartTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    @TempDir
    Path data;

    private String url;

    @BeforeAll
    static void startServer() throws Exception {
        server = EmbeddedPostgres.start();
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
        String name = "budget_" + DATABASES.incrementAndGet();
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        url = server.getJdbcUrl("postgres", name);
        super.openJournal();
    }

    @Override
    protected JdbcJournal open(Clock clock) {
        return JdbcJournal.open(data, url, "postgres", "postgres", clock);
    }
}
