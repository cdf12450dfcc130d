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
    public static final int NAMESPACE = 0x746f7062;
    /** The key's second half: the journal's database and schema, then "" for the journal or an account's suffix. */
    private static final String KEY = "?, hashtext(current_database() || '.' || coalesce(current_schema(), '') || ?)";
    /** How a node names its lock session (PostgreSQL's application_name): this, then the node's name. */
    public static final String NODE_SESSION = "topup-batch node ";
    /** How a node names the session holding (or asking for) an account's lead: this, then the node's name. */
    public static final String ACCOUNT_SESSION = "topup-batch account lead ";
    /**
     * Matches the {@code pg_locks} row (alias {@code l}) of this journal's lock, granted to its holder;
     * its parameters are {@link #NAMESPACE} and the key's suffix ("" for the journal lock). How another
     * session tells who holds the lock.
     */
    public static final String GRANTED_LOCK = "l.locktype = 'advisory' AND l.granted AND l.objsubid = 2"
            + " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            + " AND l.classid = ?::bigint::oid AND l.objid = (hashtext(current_database() || '.'"
            + " || coalesce(current_schema(), '') || ?)::bigint & 4294967295)::oid";

    /**
     * The bound on the server's side (docs/two-nodes.md#two-nodes, docs/two-nodes.md): PostgreSQL ends a lock
     * session, and frees its lock, once its node has answered nothing for this long: neither a query
     * nor a TCP keepalive probe (the server probes an idle session every second). Without it the
     * server keeps a cut-off node's session, and its lock, for the kernel's two hours. Longer than
     * {@link #ANSWER_TIMEOUT} plus a check period, so that a cut-off leader has stepped down before
     * the server lets another node take its lock.
     */
    public static final java.time.Duration SERVER_SILENCE_LIMIT = java.time.Duration.ofSeconds(5);
    /** How long any statement on a lock session may take before the session counts as lost (a socket timeout). */
    public static final java.time.Duration ANSWER_TIMEOUT = java.time.Duration.ofSeconds(2);
    /** Opening a lock session: TCP connect, then the log-in, each bounded (a node cut off waits no longer). */
    private static final int CONNECT_TIMEOUT_SECONDS = 5;
    private static final int LOGIN_TIMEOUT_SECONDS = 10;

    /** One lock session as the server knows it, so that its node can end it later from a new session. */
    public record SessionId(int pid, String started) {
    }

    /** The server's settings of a lock session that make {@link #SERVER_SILENCE_LIMIT} hold. */
    static final String SERVER_SIDE_BOUND = "-c tcp_keepalives_idle=1 -c tcp_keepalives_interval=1"
            + " -c tcp_keepalives_count=" + SERVER_SILENCE_LIMIT.toSeconds()
            + " -c tcp_user_timeout=" + SERVER_SILENCE_LIMIT.toMillis();

    private final Connection connection;
    /** This session's backend, read once it opened; null for the single instance's lock. */
    private SessionId id;
    /** "" for the journal's lock; "/account/NAME" for the lead of one account (several accounts on two nodes). */
    private final String suffix;
    private final String sessionPrefix;
    /** Whether this session holds the lock; session locks stack, so it is taken at most once. */
    private boolean held;

    private JournalLock(Connection connection) {
        this(connection, true, "", NODE_SESSION);
    }

    private JournalLock(Connection connection, boolean held, String suffix, String sessionPrefix) {
        this.connection = connection;
        this.held = held;
        this.suffix = suffix;
        this.sessionPrefix = sessionPrefix;
    }

    /**
     * A session that may take the lock later ({@link #tryHold}), as a standby polls for it. The
     * session is named after its node, so that others can tell who holds the lock ({@link #holder}).
     */
    public static JournalLock session(String url, String user, String password, String node) {
        return identified(new JournalLock(connect(url, user, password, NODE_SESSION + node), false, "", NODE_SESSION), url);
    }

    /**
     * A session that may take the lead of one account (several accounts on two nodes, docs/two-nodes.md#two-nodes): a lock of its own per account, on the journal's database, named after its node.
     */
    public static JournalLock accountSession(String url, String user, String password, String node, String account) {
        return identified(new JournalLock(connect(url, user, password, ACCOUNT_SESSION + node), false, "/account/" + account,
                ACCOUNT_SESSION), url);
    }

    /** Reads the session's backend (its pid and start) and bounds every later statement on it. */
    private static JournalLock identified(JournalLock lock, String url) {
        try (PreparedStatement ps = lock.connection.prepareStatement(
                "SELECT pid, backend_start::text FROM pg_stat_activity WHERE pid = pg_backend_pid()");
             ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                lock.id = new SessionId(rs.getInt(1), rs.getString(2));
            }
            // a hard bound on each answer, whatever the statement: a socket timeout, so that a cut link is
            // noticed even when no byte ever comes back (a query timeout would wait for the server to cancel)
            lock.connection.setNetworkTimeout(Runnable::run, (int) ANSWER_TIMEOUT.toMillis());
            return lock;
        } catch (SQLException e) {
            lock.close();
            throw new JournalException("cannot open the journal lock session on " + JournalDataSource.redact(url) + ": "
                    + firstLine(e), e);
        }
    }

    /** A setting as the server applies it to this session (SHOW), e.g. its TCP bounds. */
    synchronized String serverSetting(String name) throws SQLException {
        if (!name.matches("[a-z_]+")) {
            throw new IllegalArgumentException("not a setting name: " + name);
        }
        try (PreparedStatement ps = connection.prepareStatement("SHOW " + name); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** This session's backend, to be ended later from a new session if this one is lost. */
    public SessionId id() {
        return id;
    }

    /**
     * Ends an earlier lock session of this node that the server may still keep (its node lost it
     * through a cut link): it may hold the lock, with nobody behind it. Only that very backend (pid and
     * start time both match), so a pid reused by another session is never hit. True when one was ended.
     *
     * @throws JournalException when the database cannot be reached
     */
    public synchronized boolean end(SessionId old) {
        if (old == null || old.equals(id)) {
            return false;
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE pid = ? AND backend_start::text = ?")) {
            ps.setInt(1, old.pid());
            ps.setString(2, old.started());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new JournalException("cannot end the old lock session " + old.pid() + ": " + firstLine(e), e);
        }
    }

    /** Distinct nodes connected to the journal now (each keeps one journal-lock session), this one included. */
    public synchronized int nodesConnected() {
        String sql = "SELECT COUNT(DISTINCT application_name) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND application_name LIKE ?";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, NODE_SESSION.replace("_", "\\_") + "%");
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 1;
            }
        } catch (SQLException e) {
            throw new JournalException("cannot list the nodes: " + firstLine(e), e);
        }
    }

    /**
     * Takes the lock when it is free; true when this session holds it now.
     *
     * @throws JournalException when the database cannot be reached
     */
    public synchronized boolean tryHold() {
        if (held) {
            return true;
        }
        try {
            held = lock(connection, "pg_try_advisory_lock", suffix);
            return held;
        } catch (SQLException e) {
            throw new JournalException("cannot lock the journal database: " + firstLine(e), e);
        }
    }

    /**
     * Whether the lock is still held: the session answers within {@code timeoutSeconds}. A session
     * that does not answer may have been cut by the server, which then frees the lock for another.
     */
    public synchronized boolean stillHeld() {
        return stillHeld((int) ANSWER_TIMEOUT.toSeconds());
    }

    /** As {@link #stillHeld()}, with another bound. */
    public synchronized boolean stillHeld(int timeoutSeconds) {
        try {
            return held && connection.isValid(timeoutSeconds);
        } catch (SQLException e) {
            return false;
        }
    }

    /** The node holding the lock (as it named its session), when one does and the server says. */
    public synchronized java.util.Optional<String> holder() {
        String sql = "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE "
                + GRANTED_LOCK;
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setInt(1, NAMESPACE);
            ps.setString(2, suffix);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getString(1) != null && rs.getString(1).startsWith(sessionPrefix)) {
                    return java.util.Optional.of(rs.getString(1).substring(sessionPrefix.length()));
                }
                return java.util.Optional.empty();
            }
        } catch (SQLException e) {
            return java.util.Optional.empty();
        }
    }

    private static String firstLine(SQLException e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
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
        return lock(c, function, "");
    }

    private static boolean lock(Connection c, String function, String suffix) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + function + "(" + KEY + ")")) {
            ps.setInt(1, NAMESPACE);
            ps.setString(2, suffix);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                // pg_advisory_lock returns void (read as null): it returns only once it holds the lock
                return function.equals("pg_advisory_lock") || rs.getBoolean(1);
            }
        }
    }

    private static Connection connect(String url, String user, String password) {
        return connect(url, user, password, "topup-batch journal lock");
    }

    private static Connection connect(String url, String user, String password, String applicationName) {
        Properties p = new Properties();
        if (user != null && !user.isBlank()) {
            p.setProperty("user", user);
        }
        if (password != null && !password.isEmpty()) {
            p.setProperty("password", password);
        }
        // a lock connection idles for hours: keepalives let the client notice a dead server
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
        p.setProperty("loginTimeout", Integer.toString(LOGIN_TIMEOUT_SECONDS));
        // and the server's side of the session: PostgreSQL probes an idle session every second and ends
        // it (freeing its lock) once its node has been silent SERVER_SILENCE_LIMIT; per session, so a
        // deployment changes nothing in postgresql.conf (tcp_user_timeout: PostgreSQL 12+). After the
        // URL's own options=, which would otherwise replace it
        LockSessionOptions session = LockSessionOptions.of(url, SERVER_SIDE_BOUND);
        p.setProperty("options", session.options());
        p.setProperty("ApplicationName", applicationName);
        try {
            return DriverManager.getConnection(session.url(), p);
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
