package org.topupbatch.journal;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads journal records from result sets; the column lists here and in the queries go together. */
final class Mapping {

    static final String ROW_COLUMNS = "r.id, r.batch_id, r.seq, r.line, r.ref_id, r.product_sku, r.customer_no,"
            + " r.customer_no_zone, r.max_price, r.extras, r.state, r.serial_number, r.price, r.message,"
            + " r.created_at, r.updated_at, r.sent_at, r.checks, r.next_check_at, r.route, r.attempt";

    static final String BATCH_COLUMNS = "id, file_name, delimiter, extra_headers, archived_as, error, halt_reason,"
            + " balance_before, started_at, submit_started_at, reported_at, report_complete, provider, balance_after,"
            + " encoding, held_at, cancelled_at";

    static final String BATCH_BY_ID = "SELECT " + BATCH_COLUMNS + " FROM batch WHERE id = ?";

    private Mapping() {
    }

    static RowRecord row(ResultSet rs) throws SQLException {
        return new RowRecord(
                rs.getLong("id"),
                rs.getLong("batch_id"),
                rs.getInt("seq"),
                rs.getLong("line"),
                rs.getString("ref_id"),
                rs.getString("product_sku"),
                rs.getString("customer_no"),
                rs.getString("customer_no_zone"),
                Columns.getLong(rs, "max_price"),
                JsonText.read(rs.getString("extras")),
                RowState.valueOf(rs.getString("state")),
                rs.getString("serial_number"),
                Columns.getLong(rs, "price"),
                rs.getString("message"),
                Columns.getInstant(rs, "created_at"),
                Columns.getInstant(rs, "updated_at"),
                Columns.getInstant(rs, "sent_at"),
                rs.getInt("checks"),
                Columns.getInstant(rs, "next_check_at"),
                RowRoute.read(rs.getString("route")),
                rs.getInt("attempt"));
    }

    static BatchRecord batch(ResultSet rs) throws SQLException {
        String delimiter = rs.getString("delimiter");
        return new BatchRecord(
                rs.getLong("id"),
                rs.getString("file_name"),
                delimiter == null || delimiter.isEmpty() ? ',' : delimiter.charAt(0),
                JsonText.read(rs.getString("extra_headers")),
                rs.getString("archived_as"),
                rs.getString("error"),
                rs.getString("halt_reason"),
                Columns.getLong(rs, "balance_before"),
                Columns.getInstant(rs, "started_at"),
                Columns.getInstant(rs, "submit_started_at"),
                Columns.getInstant(rs, "reported_at"),
                rs.getBoolean("report_complete"),
                rs.getString("provider"),
                Columns.getLong(rs, "balance_after"),
                BatchEncoding.parse(rs.getString("encoding")),
                Columns.getInstant(rs, "held_at"),
                Columns.getInstant(rs, "cancelled_at"));
    }
}
