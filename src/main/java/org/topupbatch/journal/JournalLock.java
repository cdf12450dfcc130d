package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The claim of one process to a PostgreSQL journal: a session-scoped advisory lock held by a
 * connection of its own for the life of the process. Not a pool connection: a pool may close and
 * replace its connections at any time, and the lock would go with them.
 *
 * <p>The lock lives exactly as long as its connection: closing it, the process dying or the
 * connection being cut all free it, with no stale lock to clean up. A standby can therefore
 * {@link #await} the lock and take over the moment the active instance is gone.
 *
 * <p>The key is fixed per database and schema, so instances on different journals of one server
 * never block each other.
 */
public final class JournalLock implements AutoCloseable {

    /** First half of the two-part advisory key: "topb", so other users of advisory locks are not hit. */
    static final int NAMESPACE = 0x746f7062;
    private static final String KEY = "?, hashtext(current_database() || '.' || coalesce(current_schema(), ''))";

    private final Connection connection;

    private JournalLock(Connection connection) {
        this.connection = connection;
    }

    /**
     * Takes the lock at once or refuses.
     *
     * @throws JournalInUseException when another session holds it
     * @throws JournalException      when the database cannot be reached
     */
    public static JournalLock tryTake(String url, String user, String password) {
        Connection c = connect(url, user, password);
        try {
            if (lock(c, "pg_try_advisory_lock")) {
                return new JournalLock(c);
            }
        } catch (SQLException e) {
            closeQuietly(c);
            throw new JournalException("cannot lock the journal database " + JournalDataSource.redact(url) + ": "
                    + e.getMessage(), e);
        }
        closeQuietly(c);
        throw new JournalInUseException(JournalDataSource.redact(url), null);
    }

    /** Waits, as a standby would, until the lock is free, then holds it. */
    public static JournalLock await(String url, String user, String password) {
        Connection c = connect(url, user, password);
        try {
            lock(c, "pg_advisory_lock");
            return new JournalLock(c);
        } catch (SQLException e) {
            closeQuietly(c);
            throw new JournalException("cannot lock the journal database " + JournalDataSource.redact(url) + ": "
                    + e.getMessage(), e);
        }
    }

    private static boolean lock(Connection c, String function) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + function + "(" + KEY + ")")) {
            ps.setInt(1, NAMESPACE);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                // pg_advisory_lock returns void (read as null): it returns only once it holds the lock
                return function.equals("pg_advisory_lock") || rs.getBoolean(1);
            }
        }
    }

    private static Connection connect(String url, String user, String password) {
        Properties p = new Properties();
        if (user != null && !user.isBlank()) {
            p.setProperty("user", user);
        }
        if (password != null && !password.isEmpty()) {
            p.setProperty("password", password);
        }
        // a lock connection idles for hours: keepalives let the server notice a dead holder
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("ApplicationName", "topup-batch journal lock");
        try {
            return DriverManager.getConnection(url, p);
        } catch (SQLException e) {
            throw new JournalException("cannot open the journal database " + JournalDataSource.redact(url) + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }

    /** Frees the lock (by closing its connection; nothing else is needed). */
    @Override
    public void close() {
        closeQuietly(connection);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // the connection is gone either way, and the lock with it
        }
    }
}
