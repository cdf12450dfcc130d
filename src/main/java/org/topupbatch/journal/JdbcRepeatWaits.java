package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link RepeatWaits} over JDBC. The waiting rows are found through the state index (they are few),
 * each with the order it waits for through the unique order_ref_id index; only those whose order is
 * final are read. A decision for one order is one transaction whose first statement is guarded
 * ({@code state = 'WAITING' AND waits_for = ?}): the node (or thread) whose statement changes no row
 * lost the race and does nothing more.
 */
final class JdbcRepeatWaits implements RepeatWaits {

    /** Rows read per round at most: the rest are decided in the next round. */
    static final int ROUND = 10_000;
    /**
     * Waiting rows whose order is final: gone from the orders (a row turned REJECTED gives its
     * order_ref_id up), FAILED, REFUSED, SUCCESS, or ACCEPTED in a halted batch (never to be sent).
     * In row order, so each order's first waiting row comes first.
     */
    private static final String DECIDABLE = """
            SELECT w.id, w.batch_id, w.waits_for, e.state AS e_state,
            e.batch_id AS e_batch, e.line AS e_line, e.sent_at AS e_sent, eb.file_name AS e_file
            FROM batch_row w LEFT JOIN batch_row e ON e.order_ref_id = w.waits_for
            LEFT JOIN batch eb ON eb.id = e.batch_id WHERE w.state = 'WAITING'
            AND (e.id IS NULL OR e.state IN ('SUCCESS', 'FAILED', 'REFUSED', 'REJECTED')
            OR (e.state = 'ACCEPTED' AND eb.halt_reason IS NOT NULL)) ORDER BY w.id FETCH FIRST %s ROWS ONLY""".formatted(ROUND);
    private static final String RELEASE = """
            UPDATE batch_row SET state = 'ACCEPTED', waits_for = NULL, message = NULL,
            updated_at = ? WHERE id = ? AND state = 'WAITING' AND waits_for = ?""";
    private static final String WAIT_FOR_RELEASED = """
            UPDATE batch_row SET waits_for = ?, message = ?, updated_at = ?
            WHERE waits_for = ? AND state = 'WAITING'""";
    private static final String REFID_OF = "SELECT ref_id FROM batch_row WHERE id = ?";
    /**
     * Another order of the same product and customer that a row waiting for a failed order would
     * repeat: in flight (a queued row of a batch not halted, sending, pending, unknown), or delivered
     * since that row was taken in. A waiting row committed by an intake that read the order's earlier
     * waiting rows before they were decided still names the failed order, while one of those rows was
     * ordered in its place meanwhile: released too, it would order the customer's repeat a second time.
     */
    private static final String ORDERED_IN_PLACE = """
            SELECT r.order_ref_id FROM batch_row w JOIN batch_row r
            ON r.repeat_key = w.repeat_key AND r.id <> w.id JOIN batch b ON b.id = r.batch_id
            WHERE w.id = ? AND r.order_ref_id IS NOT NULL AND (r.state IN ('SENDING', 'PENDING', 'UNKNOWN')
            OR (r.state = 'ACCEPTED' AND b.halt_reason IS NULL) OR (r.state = 'SUCCESS' AND r.sent_at >= w.created_at))
            ORDER BY r.id DESC FETCH FIRST 1 ROWS ONLY""";
    private static final String REJECT = "UPDATE batch_row SET state = 'REJECTED', order_ref_id = NULL, repeat_key = NULL,"
            + " price = NULL, message = ?, updated_at = ? WHERE waits_for = ? AND state = 'WAITING' AND batch_id ";

    private final JdbcSupport jdbc;
    private final Clock clock;
    private final RowFinalRelay rowFinal;

    JdbcRepeatWaits(JdbcSupport jdbc, Clock clock, RowFinalRelay rowFinal) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.rowFinal = rowFinal;
    }

    /** The order some rows wait for, final now, and the first of those rows (the batches of all seen). */
    private record Decidable(String refId, String state, long batchId, long line, Long sentAt, String fileName,
                             long firstWaiting, Set<Long> waitingBatches) {
    }

    @Override
    public int decide() {
        Map<String, Decidable> orders = new LinkedHashMap<>();
        jdbc.query(DECIDABLE, JdbcSupport.NO_PARAMETERS, rs -> {
            String waitsFor = rs.getString("waits_for");
            Decidable order = orders.get(waitsFor);
            if (order == null) {
                long sent = rs.getLong("e_sent");
                Long sentAt = rs.wasNull() ? null : sent;
                order = new Decidable(waitsFor, rs.getString("e_state"), rs.getLong("e_batch"), rs.getLong("e_line"),
                        sentAt, rs.getString("e_file"), rs.getLong("id"), new LinkedHashSet<>());
                orders.put(waitsFor, order);
            }
            order.waitingBatches().add(rs.getLong("batch_id"));
        });
        int decided = 0;
        for (Decidable order : orders.values()) {
            decided += "SUCCESS".equals(order.state()) ? reject(order) : release(order);
        }
        return decided;
    }

    /**
     * The order failed or was never sent: no repeat. Its first waiting row is ordered, and the others
     * wait for that row from now on (one order per customer in flight, never two), in one transaction.
     */
    private int release(Decidable order) {
        long now = clock.millis();
        return jdbc.answerInTransaction(c -> {
            String inPlace = orderedInPlace(c, order.firstWaiting());
            if (inPlace != null) {
                // the rows wait for that order instead (decided like any other: delivered, they are rejected)
                return moveWaits(c, order.refId(), inPlace, now);
            }
            int released;
            try (PreparedStatement ps = c.prepareStatement(RELEASE)) {
                ps.setLong(1, now);
                ps.setLong(2, order.firstWaiting());
                ps.setString(3, order.refId());
                released = ps.executeUpdate();
            }
            int moved = 0;
            if (released == 1) {
                moved = moveWaits(c, order.refId(), refIdOf(c, order.firstWaiting()), now);
            }
            return released + moved;
        }, "cannot order the row waiting for ref_id " + order.refId());
    }

    /** The rows still waiting for {@code failed} wait for {@code next}, ordered in its place, from now on. */
    private static int moveWaits(Connection c, String failed, String next, long now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(WAIT_FOR_RELEASED)) {
            ps.setString(1, next);
            ps.setString(2, "waits for ref_id " + next + ", ordered in place of ref_id " + failed
                    + " that did not go through: the same product and customer, still in flight;"
                    + " ordered if that order fails, rejected if it succeeds");
            ps.setLong(3, now);
            ps.setString(4, failed);
            return ps.executeUpdate();
        }
    }

    /** The ref_id of an order the row {@code rowId} would repeat other than the one it waits for, or null. */
    private static String orderedInPlace(Connection c, long rowId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ORDERED_IN_PLACE)) {
            ps.setLong(1, rowId);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static String refIdOf(Connection c, long rowId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(REFID_OF)) {
            ps.setLong(1, rowId);
            try (var rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("row " + rowId + " is gone");
                }
                return rs.getString(1);
            }
        }
    }

    /** The order was delivered: every row waiting for it repeats it, and is rejected naming its ref_id. */
    private int reject(Decidable order) {
        long now = clock.millis();
        EarlierOrder inThisFile = EarlierOrder.inThisFile(order.refId(), order.line());
        EarlierOrder inEarlierBatch = new EarlierOrder(order.refId(), order.batchId(), order.fileName(), order.line(),
                order.sentAt() == null ? 0 : order.sentAt(), order.sentAt() != null, false, RowState.SUCCESS, order.refId());
        int rejected = 0;
        for (boolean sameBatch : new boolean[] {true, false}) {
            EarlierOrder earlier = sameBatch ? inThisFile : inEarlierBatch;
            rejected += jdbc.update(REJECT + (sameBatch ? "= ?" : "<> ?"), ps -> {
                ps.setString(1, earlier.rejection());
                ps.setLong(2, now);
                ps.setString(3, order.refId());
                ps.setLong(4, order.batchId());
            });
        }
        if (rejected > 0) {
            List<Long> batches = new ArrayList<>(order.waitingBatches());
            batches.forEach(rowFinal.current()::rowsFinal);
        }
        return rejected;
    }
}
