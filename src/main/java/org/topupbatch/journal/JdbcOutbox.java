package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@link Outbox} over JDBC: table outbox_message (V26), claimed by a guarded update. */
final class JdbcOutbox implements Outbox {

    private static final String COLUMNS = """
            id, event_id, event, target_kind, target, subject, body, batch_id, state, tries, created_at,
            next_try_at, last_error
            """;
    private static final String INSERT = """
            INSERT INTO outbox_message (event_id, event, target_kind, target, subject, body, batch_id, state, tries,
            created_at, next_try_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'WAITING', 0, ?, ?)""";
    private static final String DUE = """
            SELECT id FROM outbox_message WHERE state = 'WAITING' AND next_try_at <= ?
            AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_try_at, id FETCH FIRST %d ROWS ONLY""";
    // the guard: the state and the claim are conditions of the updated row itself, which PostgreSQL
    // re-checks on a row another node's transaction just claimed; one of two claimers updates 0 rows
    private static final String CLAIM = """
            UPDATE outbox_message SET claimed_by = ?, claimed_until = ? WHERE id = ? AND state = 'WAITING'
            AND next_try_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)""";
    private static final String ONE = "SELECT " + COLUMNS + " FROM outbox_message WHERE id = ?";
    private static final String DELIVERED = """
            UPDATE outbox_message SET state = 'DELIVERED', tries = tries + 1, done_at = ?, last_error = NULL,
            claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?""";
    private static final String RETRY = """
            UPDATE outbox_message SET tries = tries + 1, next_try_at = ?, last_error = ?,
            claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?""";
    private static final String GIVE_UP = """
            UPDATE outbox_message SET state = 'GIVEN_UP', tries = tries + 1, done_at = ?, last_error = ?,
            claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?""";
    private static final String RELEASE = """
            UPDATE outbox_message SET claimed_by = NULL, claimed_until = NULL WHERE state = 'WAITING'
            AND claimed_by LIKE ? ESCAPE '!'""";
    private static final String COUNT = "SELECT COUNT(*) AS n FROM outbox_message WHERE state = ?";
    private static final String LISTED = "SELECT " + COLUMNS + " " + """
            FROM outbox_message WHERE state = ? ORDER BY id FETCH FIRST %d ROWS ONLY""";
    private static final String RESEND = """
            UPDATE outbox_message SET state = 'WAITING', next_try_at = ?, done_at = NULL, tries = 0
            WHERE state = 'GIVEN_UP'""";
    private static final String FORGET_CALLBACK = "DELETE FROM door_callback WHERE file_name = ? AND content_hash = ?";
    private static final String RECORD_CALLBACK = """
            INSERT INTO door_callback (file_name, content_hash, callback_url, recorded_at) VALUES (?, ?, ?, ?)""";
    private static final String CALLBACKS = "SELECT content_hash, callback_url FROM door_callback WHERE file_name = ?";

    private final JdbcSupport jdbc;

    JdbcOutbox(JdbcSupport jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void add(List<OutgoingMessage> messages) {
        if (messages.isEmpty()) {
            return;
        }
        jdbc.inTransaction(c -> insert(c, messages, System.currentTimeMillis()), "cannot record the outgoing messages");
    }

    @Override
    public void markReported(long batchId, Instant at, boolean complete, Long balanceAfter, List<OutgoingMessage> messages) {
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(JdbcReportingJournal.MARK_REPORTED)) {
                ps.setLong(1, at.toEpochMilli());
                ps.setBoolean(2, complete);
                Columns.setLong(ps, 3, balanceAfter);
                ps.setLong(4, batchId);
                ps.executeUpdate();
            }
            insert(c, messages, at.toEpochMilli());
        }, "cannot record the report of batch " + batchId + " and its messages");
    }

    /** Records the messages on {@code c}, in the caller's transaction (a change and the messages it calls for). */
    static void insert(Connection c, List<OutgoingMessage> messages, long now) throws SQLException {
        if (messages.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            for (OutgoingMessage m : messages) {
                ps.setString(1, m.eventId());
                ps.setString(2, m.event());
                ps.setString(3, m.targetKind());
                ps.setString(4, m.target());
                ps.setString(5, m.subject());
                ps.setString(6, m.body());
                Columns.setLong(ps, 7, m.batchId());
                ps.setLong(8, now);
                ps.setLong(9, now);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @Override
    public void recordDoorCallback(String fileName, String contentHash, String url, Instant at) {
        jdbc.inTransaction(c -> {
            try (PreparedStatement forget = c.prepareStatement(FORGET_CALLBACK);
                 PreparedStatement record = c.prepareStatement(RECORD_CALLBACK)) {
                forget.setString(1, fileName);
                forget.setString(2, contentHash);
                forget.executeUpdate();
                record.setString(1, fileName);
                record.setString(2, contentHash);
                record.setString(3, url);
                record.setLong(4, at.toEpochMilli());
                record.executeUpdate();
            }
        }, "cannot record the callback of " + fileName);
    }

    @Override
    public String callbackUrl(String fileName, String archivedAs) {
        if (archivedAs == null) {
            return null;
        }
        String[] url = {null};
        jdbc.query(CALLBACKS, ps -> ps.setString(1, fileName), rs -> {
            if (archivedAs.contains("." + rs.getString("content_hash") + ".")) {
                url[0] = rs.getString("callback_url");
            }
        });
        return url[0];
    }

    @Override
    public List<OutboxEntry> claimDue(Instant now, String node, Duration lease, int max) {
        List<Long> due = new ArrayList<>();
        long t = now.toEpochMilli();
        jdbc.query(DUE.formatted(max), ps -> {
            ps.setLong(1, t);
            ps.setLong(2, t);
        }, rs -> due.add(rs.getLong(1)));
        List<OutboxEntry> claimed = new ArrayList<>();
        for (long id : due) {
            int won = jdbc.update(CLAIM, ps -> {
                ps.setString(1, node);
                ps.setLong(2, t + lease.toMillis());
                ps.setLong(3, id);
                ps.setLong(4, t);
                ps.setLong(5, t);
            });
            if (won == 1) {
                jdbc.query(ONE, ps -> ps.setLong(1, id), rs -> claimed.add(entry(rs)));
            }
        }
        return claimed;
    }

    @Override
    public int releaseClaimsOf(String nodeName) {
        String prefix = nodeName.replace("!", "!!").replace("%", "!%").replace("_", "!_") + ":%";
        return jdbc.update(RELEASE, ps -> ps.setString(1, prefix));
    }

    @Override
    public void delivered(long id, String node, Instant at) {
        jdbc.update(DELIVERED, ps -> {
            ps.setLong(1, at.toEpochMilli());
            ps.setLong(2, id);
            ps.setString(3, node);
        });
    }

    @Override
    public void retryAt(long id, String node, Instant next, String error) {
        jdbc.update(RETRY, ps -> {
            ps.setLong(1, next.toEpochMilli());
            ps.setString(2, shortened(error));
            ps.setLong(3, id);
            ps.setString(4, node);
        });
    }

    @Override
    public void giveUp(long id, String node, Instant at, String error) {
        jdbc.update(GIVE_UP, ps -> {
            ps.setLong(1, at.toEpochMilli());
            ps.setString(2, shortened(error));
            ps.setLong(3, id);
            ps.setString(4, node);
        });
    }

    @Override
    public OutboxState state(int maxListed) {
        return new OutboxState(count("WAITING"), count("GIVEN_UP"), listed("WAITING", maxListed),
                listed("GIVEN_UP", maxListed));
    }

    @Override
    public int resend(String eventId, Instant now) {
        String sql = eventId == null ? RESEND : RESEND + " AND event_id = ?";
        return jdbc.update(sql, ps -> {
            ps.setLong(1, now.toEpochMilli());
            if (eventId != null) {
                ps.setString(2, eventId);
            }
        });
    }

    private long count(String state) {
        return jdbc.single(COUNT, ps -> ps.setString(1, state), "n", 0);
    }

    private List<OutboxEntry> listed(String state, int max) {
        List<OutboxEntry> out = new ArrayList<>();
        jdbc.query(LISTED.formatted(Math.max(1, max)), ps -> ps.setString(1, state), rs -> out.add(entry(rs)));
        return out;
    }

    private static OutboxEntry entry(ResultSet rs) throws SQLException {
        long batch = rs.getLong("batch_id");
        Long batchId = rs.wasNull() ? null : batch;
        return new OutboxEntry(rs.getLong("id"), rs.getString("event_id"), rs.getString("event"),
                rs.getString("target_kind"), rs.getString("target"), rs.getString("subject"), rs.getString("body"),
                batchId, rs.getString("state"), rs.getInt("tries"), Instant.ofEpochMilli(rs.getLong("created_at")),
                Instant.ofEpochMilli(rs.getLong("next_try_at")), rs.getString("last_error"));
    }

    private static String shortened(String error) {
        return error == null ? null : error.substring(0, Math.min(error.length(), 1000));
    }
}
