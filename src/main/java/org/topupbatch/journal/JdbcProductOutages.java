package org.topupbatch.journal;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@link ProductOutages} over JDBC: one row per product in table product_outage. */
final class JdbcProductOutages implements ProductOutages {

    private static final String HOLD_KNOWN = """
            UPDATE product_outage SET held = TRUE, message = ?, updated_at = ?
            WHERE product_sku = ?""";
    private static final String HOLD_NEW = """
            INSERT INTO product_outage (product_sku, since, held, message, updated_at)
            VALUES (?, ?, TRUE, ?, ?)""";
    private static final String RELEASE = "UPDATE product_outage SET held = FALSE, updated_at = ? WHERE product_sku = ?";
    private static final String END = "DELETE FROM product_outage WHERE product_sku = ?";
    private static final String OUTAGES = """
            SELECT o.product_sku, o.since, o.held, o.message, o.updated_at,
            (SELECT COUNT(*) FROM batch_row r JOIN batch b ON b.id = r.batch_id WHERE r.state = 'ACCEPTED'
            AND r.product_sku = o.product_sku AND b.halt_reason IS NULL AND b.error IS NULL) AS waiting
            FROM product_outage o ORDER BY o.since, o.product_sku""";
    private static final String GOING_ON = "(SELECT b.id FROM batch b WHERE b.halt_reason IS NULL AND b.error IS NULL)";
    private static final String BATCHES_WAITING = """
            SELECT DISTINCT r.batch_id FROM batch_row r WHERE r.state = 'ACCEPTED'
            AND r.product_sku = ? AND r.batch_id IN %s""".formatted(GOING_ON);
    // the state is a condition of the updated row itself: PostgreSQL re-checks it on a row another
    // transaction just marked SENDING (a condition only inside a subquery would not be re-checked)
    private static final String REJECT_WAITING = """
            UPDATE batch_row SET state = 'REJECTED', order_ref_id = NULL,
            repeat_key = NULL, message = ?, updated_at = ? WHERE state = 'ACCEPTED' AND product_sku = ?
            AND batch_id IN %s""".formatted(GOING_ON);

    private final JdbcSupport jdbc;
    private final Clock clock;
    private final RowFinalRelay rowFinal;

    JdbcProductOutages(JdbcSupport jdbc, Clock clock, RowFinalRelay rowFinal) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.rowFinal = rowFinal;
    }

    @Override
    public void holdProduct(String sku, Instant since, String message) {
        String shown = message == null ? null : message.substring(0, Math.min(message.length(), 1000));
        if (updateHold(sku, shown) == 1) {
            return;
        }
        try {
            jdbc.update(HOLD_NEW, ps -> {
                ps.setString(1, sku);
                ps.setLong(2, since.toEpochMilli());
                ps.setString(3, shown);
                ps.setLong(4, clock.millis());
            });
        } catch (JournalException e) {
            // the other node (or thread) recorded it first: hold it on that record
            if (updateHold(sku, shown) != 1) {
                throw e;
            }
        }
    }

    private int updateHold(String sku, String message) {
        return jdbc.update(HOLD_KNOWN, ps -> {
            ps.setString(1, message);
            ps.setLong(2, clock.millis());
            ps.setString(3, sku);
        });
    }

    @Override
    public void releaseProduct(String sku) {
        jdbc.update(RELEASE, ps -> {
            ps.setLong(1, clock.millis());
            ps.setString(2, sku);
        });
    }

    @Override
    public void endOutage(String sku) {
        jdbc.update(END, ps -> ps.setString(1, sku));
    }

    @Override
    public List<ProductOutage> productOutages() {
        List<ProductOutage> out = new ArrayList<>();
        jdbc.query(OUTAGES, ps -> { }, rs -> out.add(new ProductOutage(rs.getString("product_sku"),
                Instant.ofEpochMilli(rs.getLong("since")), rs.getBoolean("held"), rs.getString("message"),
                Instant.ofEpochMilli(rs.getLong("updated_at")), rs.getLong("waiting"))));
        return out;
    }

    @Override
    public int rejectWaitingRows(String sku, String message) {
        List<Long> batches = new ArrayList<>();
        jdbc.query(BATCHES_WAITING, ps -> ps.setString(1, sku), rs -> batches.add(rs.getLong(1)));
        int rejected = jdbc.update(REJECT_WAITING, ps -> {
            ps.setString(1, message);
            ps.setLong(2, clock.millis());
            ps.setString(3, sku);
        });
        if (rejected > 0) {
            batches.forEach(rowFinal.current()::rowsFinal);
        }
        return rejected;
    }
}
