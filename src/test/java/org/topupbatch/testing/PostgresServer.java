package org.topupbatch.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.extension.Extension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one embedded PostgreSQL every PostgreSQL test uses: a real server (binaries from the Maven
 * artifact, listening on 127.0.0.1 on a free port), started on first use and shared by every test
 * class of the test JVM (Surefire and Failsafe reuse their forks), stopped when that JVM ends.
 * Starting one (initdb and all) costs seconds on a loaded machine; each test takes a database of
 * its own ({@link #createDatabase()}), so the classes share nothing else. Register it as a static
 * {@code @RegisterExtension} field, as before.
 *
 * <p>A server that cannot start fails the test with a message saying so: the PostgreSQL tests
 * are the only proof that the journal works there, so they never skip.
 */
public final class PostgresServer implements Extension {

    /** The superuser the embedded server is created with; it trusts local connections. */
    public static final String SUPERUSER = "postgres";

    private static final AtomicInteger DATABASES = new AtomicInteger();

    /** The JVM's server: test classes in one fork run one after another, each in databases of its own. */
    private static EmbeddedPostgres server;
    /** Kept so the other tests fail at once instead of waiting for a start that failed. */
    private static AssertionError startFailure;

    /** A database on the server, with what a client needs to log in to it. */
    public record Database(String name, String url, String user, String password) {

        public Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }
    }

    /** A new, empty database owned by the superuser; the server starts if it has not yet. */
    public Database createDatabase() {
        String name = "journal_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        // FILE_COPY: PostgreSQL 15+'s default (WAL_LOG) makes each small test database slow to create
        superuserExecute("CREATE DATABASE " + name + " STRATEGY FILE_COPY");
        return database(name, SUPERUSER, "");
    }

    /** Login details for an existing database as the given user. */
    public Database database(String name, String user, String password) {
        return new Database(name, started().getJdbcUrl(SUPERUSER, name).replaceFirst("\\?.*$", ""), user, password);
    }

    /** Runs statements as the superuser on the maintenance database {@code postgres}. */
    public void superuserExecute(String... statements) {
        try (Connection c = started().getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("embedded PostgreSQL refused: " + e.getMessage(), e);
        }
    }

    /** The server's major version, e.g. 17. */
    public int majorVersion() {
        try (Connection c = started().getPostgresDatabase().getConnection()) {
            return c.getMetaData().getDatabaseMajorVersion();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the embedded PostgreSQL version: " + e.getMessage(), e);
        }
    }

    private static synchronized EmbeddedPostgres started() {
        if (startFailure != null) {
            throw startFailure;
        }
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder()
                        .setServerConfig("listen_addresses", "127.0.0.1")
                        .start();
                Runtime.getRuntime().addShutdownHook(new Thread(PostgresServer::stop, "embedded-postgres-stop"));
            } catch (Exception | LinkageError e) {
                startFailure = new AssertionError("embedded PostgreSQL could not start (io.zonky embedded-postgres, binaries"
                        + " io.zonky.test.postgres:embedded-postgres-binaries-*): " + e
                        + ". The PostgreSQL tests need it and do not skip: fix the machine or the binaries.", e);
                throw startFailure;
            }
        }
        return server;
    }

    private static synchronized void stop() {
        if (server != null) {
            try {
                server.close();
            } catch (java.io.IOException e) {
                System.err.println("embedded PostgreSQL did not stop cleanly: " + e.getMessage());
            }
            server = null;
        }
    }
}
