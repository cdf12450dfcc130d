package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The voucher to the customer (docs/customer-messages.md): a row's SUCCESS and its customer's outbox
 * message are written in one transaction, so a crash keeps both or neither. The row's update is the
 * guard: only the report that turns the row SUCCESS writes a message; a second report of the same
 * success changes no row and writes nothing. The event id is the row's, the same on every try.
 */
final class JdbcCustomerVouchers {

    /** {@code event} of the customer's message in the outbox. */
    static final String EVENT = "customer_voucher";
    /** {@code target_kind}: the target is the row's notify_to. */
    static final String KIND = "customer";

    private static final String ROW = """
            SELECT batch_id, ref_id, product_sku, customer_no, serial_number, notify_to FROM batch_row WHERE id = ?""";
    /** The product's name in a kept price list (the single account's, '', sorts first). */
    private static final String PRODUCT_NAME = """
            SELECT name FROM price_list_product WHERE sku = ? AND name IS NOT NULL ORDER BY account FETCH FIRST 1 ROWS ONLY""";
    private static final String INSERT = """
            INSERT INTO outbox_message (event_id, event, target_kind, target, subject, body, batch_id, state, tries,
            created_at, next_try_at, row_id) VALUES (?, ?, ?, ?, NULL, ?, ?, 'WAITING', 0, ?, ?, ?)""";
    private static final String NOTICES = """
            SELECT r.id, o.state, o.last_error FROM batch_row r LEFT JOIN outbox_message o
            ON o.row_id = r.id AND o.event = 'customer_voucher' WHERE r.batch_id = ? AND r.notify_to IS NOT NULL""";

    private static final String TARGETS = "SELECT id, notify_to FROM batch_row WHERE batch_id = ? AND notify_to IS NOT NULL";

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private static final String WAITING = """
            SELECT COUNT(*) AS n FROM outbox_message WHERE batch_id = ? AND event = 'customer_voucher'
            AND state = 'WAITING' AND created_at >= ?""";

    private final JdbcSupport jdbc;
    private volatile CustomerChannels channels = CustomerChannels.NONE;

    JdbcCustomerVouchers(JdbcSupport jdbc) {
        this.jdbc = jdbc;
    }

    void reach(CustomerChannels channels) {
        this.channels = channels == null ? CustomerChannels.NONE : channels;
    }

    /** Whether any customer can be reached: otherwise a success is the plain update it always was. */
    boolean active() {
        return channels != CustomerChannels.NONE;
    }

    /**
     * Runs the row's SUCCESS {@code update} (bound by {@code binder}) and, when it changed the row and
     * the row's notify_to is reachable, writes the customer's message, in one transaction.
     */
    boolean succeed(String update, JdbcSupport.Binder binder, long rowId, long now) {
        return jdbc.answerInTransaction(c -> {
            boolean changed;
            try (PreparedStatement ps = c.prepareStatement(update)) {
                binder.bind(ps);
                changed = ps.executeUpdate() == 1;
            }
            if (changed) {
                message(c, rowId, now);
            }
            return changed;
        }, "cannot record the success of row " + rowId + " with its customer's message");
    }

    private void message(Connection c, long rowId, long now) throws SQLException {
        try (PreparedStatement read = c.prepareStatement(ROW)) {
            read.setLong(1, rowId);
            try (ResultSet rs = read.executeQuery()) {
                if (!rs.next() || rs.getString("notify_to") == null || !channels.reach(rs.getString("notify_to"))) {
                    return;
                }
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("ref_id", rs.getString("ref_id"));
                fields.put("product_sku", rs.getString("product_sku"));
                fields.put("product", productName(c, rs.getString("product_sku")));
                fields.put("customer_no", rs.getString("customer_no"));
                fields.put("serial", rs.getString("serial_number"));
                try (PreparedStatement ps = c.prepareStatement(INSERT)) {
                    ps.setString(1, "voucher_" + rowId);
                    ps.setString(2, EVENT);
                    ps.setString(3, KIND);
                    ps.setString(4, rs.getString("notify_to"));
                    ps.setString(5, json(fields));
                    ps.setLong(6, rs.getLong("batch_id"));
                    ps.setLong(7, now);
                    ps.setLong(8, now);
                    ps.setLong(9, rowId);
                    ps.executeUpdate();
                }
            }
        }
    }

    /** The name the customer knows the product by: the price list's, else its SKU. */
    private static String productName(Connection c, String sku) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(PRODUCT_NAME)) {
            ps.setString(1, sku);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : sku;
            }
        }
    }

    private static String json(Map<String, Object> fields) {
        try {
            return JSON.writeValueAsString(fields);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Each row of the batch that names a notify_to, by id: {@code sent}, {@code failed: <reason>} once
     * the outbox gave its message up, or empty (no message, or one still being tried).
     */
    Map<Long, String> notices(long batchId) {
        Map<Long, String> notices = new java.util.HashMap<>();
        jdbc.query(NOTICES, ps -> ps.setLong(1, batchId), rs -> {
            String state = rs.getString("state");
            notices.put(rs.getLong("id"), "DELIVERED".equals(state) ? "sent"
                    : "GIVEN_UP".equals(state) ? "failed: " + rs.getString("last_error") : "");
        });
        return notices;
    }

    /** Each row of the batch that names a notify_to, by id: the notify_to as kept. */
    Map<Long, String> targets(long batchId) {
        Map<Long, String> targets = new java.util.HashMap<>();
        jdbc.query(TARGETS, ps -> ps.setLong(1, batchId), rs -> targets.put(rs.getLong("id"), rs.getString("notify_to")));
        return targets;
    }

    /** Whether a customer's message of the batch written at or after {@code since} is still waiting. */
    boolean waiting(long batchId, java.time.Instant since) {
        return jdbc.single(WAITING, ps -> {
            ps.setLong(1, batchId);
            ps.setLong(2, since.toEpochMilli());
        }, "n", 0) > 0;
    }
}
