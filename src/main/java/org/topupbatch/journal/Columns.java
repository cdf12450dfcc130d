package org.topupbatch.journal;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;

/**
 * Nullable column values. Times are stored as epoch milliseconds in BIGINT columns: the same on H2 and PostgreSQL,
 * free of driver time-zone handling. Precision below a millisecond is dropped.
 */
final class Columns {

    private Columns() {
    }

    static void setInstant(PreparedStatement ps, int index, Instant at) throws SQLException {
        if (at == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, at.toEpochMilli());
        }
    }

    static Instant getInstant(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(value);
    }

    static Long getLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    static void setLong(PreparedStatement ps, int index, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, value);
        }
    }
}
