package org.topupbatch.cluster;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.topupbatch.journal.JournalDataSource;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalLock;

/**
 * The nodes on a PostgreSQL journal, as the server sees them: each node keeps a lock session named
 * after it, and the active one is the session holding the journal lock. Read by {@code status}
 * from outside the nodes, so it needs nothing but the journal's database.
 */
public final class NodeSessions {

    /** One node's lock session: its name, whether it holds the lock, and when it connected (null when not shown). */
    public record Node(String name, boolean active, Instant connected) {
    }

    private static final String SQL = "SELECT substr(a.application_name, " + (JournalLock.NODE_SESSION.length() + 1)
            + "), a.backend_start, EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND " + JournalLock.GRANTED_LOCK
            + ") FROM pg_stat_activity a WHERE a.datname = current_database() AND a.application_name LIKE ?"
            + " ORDER BY 3 DESC, 1";

    private static final String ACCOUNT_LEADER = "SELECT substr(a.application_name, " + (JournalLock.ACCOUNT_SESSION.length() + 1)
            + ") FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE " + JournalLock.GRANTED_LOCK
            + " AND a.application_name LIKE ?";

    private NodeSessions() {
    }

    /**
     * Several accounts on two nodes: the node leading each account now (docs/two-nodes.md#two-nodes), in the
     * order given; an account no node leads maps to null.
     *
     * @throws JournalException when the database cannot be reached (the message names it without the password)
     */
    public static java.util.Map<String, String> accountLeaders(String url, String user, String password, List<String> accounts) {
        java.util.Map<String, String> leaders = new java.util.LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(url.trim(), properties(user, password));
             PreparedStatement ps = c.prepareStatement(ACCOUNT_LEADER)) {
            for (String account : accounts) {
                ps.setInt(1, JournalLock.NAMESPACE);
                ps.setString(2, "/account/" + account);
                ps.setString(3, JournalLock.ACCOUNT_SESSION.replace("_", "\\_") + "%");
                String leader = null;
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        leader = rs.getString(1);
                    }
                }
                leaders.put(account, leader);
            }
            return leaders;
        } catch (SQLException e) {
            throw new JournalException("cannot list the accounts' leaders on " + JournalDataSource.redact(url) + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }

    private static Properties properties(String user, String password) {
        Properties p = new Properties();
        if (user != null && !user.isBlank()) {
            p.setProperty("user", user);
        }
        if (password != null && !password.isEmpty()) {
            p.setProperty("password", password);
        }
        p.setProperty("ApplicationName", "topup-batch status"); // not a node: never listed as one
        return p;
    }

    /**
     * The nodes connected to the journal now, the active one first.
     *
     * @throws JournalException when the database cannot be reached (the message names it without the password)
     */
    public static List<Node> read(String url, String user, String password) {
        Properties p = properties(user, password);
        try (Connection c = DriverManager.getConnection(url.trim(), p);
             PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setInt(1, JournalLock.NAMESPACE);
            ps.setString(2, ""); // the journal's lock, not an account's lead
            ps.setString(3, JournalLock.NODE_SESSION.replace("_", "\\_") + "%");
            List<Node> nodes = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Timestamp connected = rs.getTimestamp(2);
                    nodes.add(new Node(rs.getString(1), rs.getBoolean(3), connected == null ? null : connected.toInstant()));
                }
            }
            return nodes;
        } catch (SQLException e) {
            throw new JournalException("cannot list the nodes on " + JournalDataSource.redact(url) + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }
}
