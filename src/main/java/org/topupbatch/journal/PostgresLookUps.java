package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The intake transaction's look-ups (ref_ids, repeat keys; see {@link JdbcBatchWriter}) as PostgreSQL
 * must be asked them while batch_row is being filled.
 *
 * <p>Why: the rows the intake transaction writes have no statistics until it commits (no ANALYZE
 * of another session sees them), and without statistics PostgreSQL takes each of 1,000 values in
 * an {@code IN} list to match 1/200 of the table, that is all of it: it read every row written so
 * far for each chunk (a sequential scan, or with those forbidden a whole index with a filter), so a
 * 1,000,000-row file never finished (BENCHMARKS.md). Here each value is looked up on its own: the
 * values come as one array, and a LATERAL subquery that cannot be merged into the join (an
 * aggregate, or OFFSET 0) is run once per value with that value as its index condition. Sequential
 * scans are also off for the transaction, and every execution planned afresh (a cached generic plan
 * ignores the setting; the driver keeps prepared statements per connection).
 *
 * <p>A plan's look-ups ({@link JdbcIntakeJournal#ordersAmong}, {@link JdbcIntakeJournal#repeatsAmong}) are
 * asked the same way: a plan may come right after a big intake, before any ANALYZE saw its rows.
 *
 * <p>Weighed and left: ANALYZE inside the transaction (it does see the transaction's own rows, but
 * it holds a lock until commit that makes a second intake and autovacuum wait, and needs the
 * table's owner); {@code = ANY(?)} alone (the same estimate as the {@code IN} list). H2 plans by its
 * indexes and keeps the {@code IN} lists.
 */
final class PostgresLookUps {

    /** One row per ref_id: its first line in this batch (any row), and how many rows order it. */
    static final String FIND_REF_USES = """
            SELECT k.ref_id, u.line, u.orders FROM unnest(?::varchar[]) AS k(ref_id) CROSS JOIN LATERAL
            (SELECT MIN(CASE WHEN r.batch_id = ? THEN r.line END) AS line, COUNT(r.order_ref_id) AS orders
            FROM batch_row r WHERE r.ref_id = k.ref_id) u""";

    /** As {@link JdbcBatchWriter#FIND_REPEATS}, one look-up of ix_batch_row_repeat per key. */
    static final String FIND_REPEATS = """
            SELECT r.repeat_key, r.ref_id, r.batch_id, r.line, r.state, r.sent_at,
            r.created_at, r.waits_for, b.file_name, b.halt_reason FROM unnest(?::varchar[]) AS k(repeat_key)
            CROSS JOIN LATERAL (SELECT * FROM batch_row r0 WHERE r0.repeat_key = k.repeat_key OFFSET 0) r
            JOIN batch b ON b.id = r.batch_id
            WHERE r.sent_at >= ? OR r.created_at >= ?""";

    /** As JdbcIntakeJournal's ORDERS_AMONG (a plan's look-up), one look-up of ux_batch_row_order_ref per ref_id. */
    static final String ORDERS_AMONG = """
            SELECT o.order_ref_id FROM unnest(?::varchar[]) AS k(ref_id) CROSS JOIN LATERAL
            (SELECT r.order_ref_id FROM batch_row r WHERE r.order_ref_id = k.ref_id OFFSET 0) o""";

    private PostgresLookUps() {
    }

    static boolean on(Connection connection) throws SQLException {
        return "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
    }

    /** For the rest of the transaction only ({@code set_config(..., true)} is {@code SET LOCAL}). */
    static void planThroughIndexes(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("SELECT set_config('enable_seqscan', 'off', true), set_config('plan_cache_mode', 'force_custom_plan', true)");
        }
    }

    static void bindRefUses(PreparedStatement ps, List<String> refIds, long batchId) throws SQLException {
        ps.setArray(1, ps.getConnection().createArrayOf("varchar", refIds.toArray()));
        ps.setLong(2, batchId);
    }

    static void bindOrders(PreparedStatement ps, List<String> refIds) throws SQLException {
        ps.setArray(1, ps.getConnection().createArrayOf("varchar", refIds.toArray()));
    }

    static void bindRepeats(PreparedStatement ps, List<String> repeatKeys, long windowStart) throws SQLException {
        ps.setArray(1, ps.getConnection().createArrayOf("varchar", repeatKeys.toArray()));
        ps.setLong(2, windowStart);
        ps.setLong(3, windowStart);
    }
}
