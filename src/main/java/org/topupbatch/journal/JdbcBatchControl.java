package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** {@link BatchControl} over JDBC: columns held_at and cancelled_at of table batch. */
final class JdbcBatchControl implements BatchControl {

    private static final String HOLD = "UPDATE batch SET held_at = ? WHERE id = ? AND held_at IS NULL AND cancelled_at IS NULL";
    private static final String RESUME = "UPDATE batch SET held_at = NULL WHERE id = ? AND held_at IS NOT NULL";
    // a held batch's orders of unknown outcome were only looked up, backing off: now they may go again
    private static final String UNKNOWN_DUE_NOW = """
            UPDATE batch_row SET next_check_at = ? WHERE batch_id = ?
            AND state = 'UNKNOWN'""";
    private static final String CANCEL = "UPDATE batch SET cancelled_at = ?, held_at = NULL WHERE id = ? AND cancelled_at IS NULL";
    static final String REJECT_QUEUED = """
            UPDATE batch_row SET state = 'REJECTED', order_ref_id = NULL, repeat_key = NULL,
            message = ?, updated_at = ? WHERE batch_id = ? AND state IN ('ACCEPTED', 'WAITING')"""; // a waiting row is queued too
    private static final String CANCELLED_WITH_ROWS_QUEUED = """
            SELECT %s FROM batch b
            WHERE b.cancelled_at IS NOT NULL AND EXISTS (SELECT 1 FROM batch_row r WHERE r.batch_id = b.id
            AND r.state IN ('ACCEPTED', 'WAITING')) ORDER BY b.id""".formatted(Mapping.BATCH_COLUMNS);
    private static final String CANCELLED_SINCE = """
            SELECT %s FROM batch
            WHERE cancelled_at >= ? ORDER BY cancelled_at, id""".formatted(Mapping.BATCH_COLUMNS);

    private final JdbcSupport jdbc;
    private final java.time.Clock clock;
    private final RowFinalRelay rowFinal;

    JdbcBatchControl(JdbcSupport jdbc, java.time.Clock clock, RowFinalRelay rowFinal) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.rowFinal = rowFinal;
    }

    @Override
    public boolean holdBatch(long batchId, Instant at) {
        return jdbc.update(HOLD, ps -> {
            ps.setLong(1, at.toEpochMilli());
            ps.setLong(2, batchId);
        }) == 1;
    }

    @Override
    public boolean resumeBatch(long batchId) {
        boolean resumed = jdbc.update(RESUME, ps -> ps.setLong(1, batchId)) == 1;
        if (resumed) {
            jdbc.update(UNKNOWN_DUE_NOW, ps -> {
                Columns.setInstant(ps, 1, clock.instant());
                ps.setLong(2, batchId);
            });
        }
        return resumed;
    }

    @Override
    public int cancelBatch(long batchId, Instant at, String message) {
        int rejected;
        try (Connection c = jdbc.connection()) {
            c.setAutoCommit(false);
            try {
                int marked;
                try (PreparedStatement ps = c.prepareStatement(CANCEL)) {
                    ps.setLong(1, at.toEpochMilli());
                    ps.setLong(2, batchId);
                    marked = ps.executeUpdate();
                }
                if (marked == 0) {
                    c.rollback();
                    return -1;
                }
                rejected = rejectQueued(c, batchId, message, at);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new JournalException("cannot cancel batch " + batchId + ": " + e.getMessage(), e);
        }
        if (rejected > 0) {
            rowFinal.current().rowsFinal(batchId);
        }
        return rejected;
    }

    @Override
    public int rejectQueuedOfCancelled(long batchId, String message) {
        int rejected = jdbc.update(REJECT_QUEUED + " AND batch_id IN (SELECT id FROM batch WHERE cancelled_at IS NOT NULL)", ps -> {
            ps.setString(1, message);
            ps.setLong(2, clock.millis());
            ps.setLong(3, batchId);
        });
        if (rejected > 0) {
            rowFinal.current().rowsFinal(batchId);
        }
        return rejected;
    }

    private static int rejectQueued(Connection c, long batchId, String message, Instant at) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(REJECT_QUEUED)) {
            ps.setString(1, message);
            ps.setLong(2, at.toEpochMilli());
            ps.setLong(3, batchId);
            return ps.executeUpdate();
        }
    }

    @Override
    public List<BatchRecord> cancelledWithRowsQueued() {
        return jdbc.batches(CANCELLED_WITH_ROWS_QUEUED, ps -> { });
    }

    @Override
    public long[] heldAndCancelled() {
        long[] counts = new long[3];
        jdbc.query("SELECT COUNT(held_at) AS held, COUNT(cancelled_at) AS cancelled FROM batch", ps -> { }, rs -> {
            counts[0] = rs.getLong("held");
            counts[1] = rs.getLong("cancelled");
        });
        if (counts[0] > 0) {
            jdbc.query("SELECT COUNT(*) FROM batch_row r JOIN batch b ON b.id = r.batch_id WHERE b.held_at IS NOT NULL"
                    + " AND r.state = 'ACCEPTED'", ps -> { }, rs -> counts[2] = rs.getLong(1));
        }
        return counts;
    }

    @Override
    public List<BatchRecord> cancelledSince(Instant since) {
        return jdbc.batches(CANCELLED_SINCE, ps -> ps.setLong(1, since.toEpochMilli()));
    }
}
