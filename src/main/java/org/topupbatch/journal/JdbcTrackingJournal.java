package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** {@link TrackingJournal} over JDBC: sent orders not yet final, when to look at them, and their outcome. */
final class JdbcTrackingJournal extends JdbcRowOutcomesHolder implements TrackingJournal {

    /** %s: the account scope's condition (AccountScope#where) or "". */
    private static final String DUE_FOR_CHECK = """
            SELECT %s FROM batch_row r
            WHERE r.state IN ('PENDING', 'UNKNOWN') AND (r.next_check_at IS NULL OR r.next_check_at <= ?) %s
            ORDER BY r.next_check_at NULLS FIRST, r.id LIMIT ?""".formatted(Mapping.ROW_COLUMNS, "%s");
    private static final String FIND_ORDER = "SELECT " + Mapping.ROW_COLUMNS + " FROM batch_row r WHERE r.order_ref_id = ?";
    private static final String SENDING_TO_UNKNOWN = """
            UPDATE batch_row SET state = 'UNKNOWN', next_check_at = ?,
            updated_at = ? WHERE state = 'SENDING'""";
    private static final String PENDING_DUE_BY = """
            UPDATE batch_row SET next_check_at = ?
            WHERE state = 'PENDING' AND (next_check_at IS NULL OR next_check_at > ?)""";

    private static final String SENDING_AT = "SELECT COUNT(*) FROM batch_row WHERE state = 'SENDING' AND account = ?";

    private final JdbcSupport jdbc;

    JdbcTrackingJournal(JdbcSupport jdbc, RowOutcomes outcomes) {
        super(outcomes);
        this.jdbc = jdbc;
    }

    @Override
    public List<RowRecord> dueForCheck(Instant now, int limit) {
        return jdbc.rows(DUE_FOR_CHECK.formatted(""), ps -> {
            ps.setLong(1, now.toEpochMilli());
            ps.setInt(2, limit);
        });
    }

    @Override
    public List<RowRecord> dueForCheckAt(Instant now, int limit, AccountScope scope) {
        if (scope.isEmpty()) {
            return List.of();
        }
        return jdbc.rows(DUE_FOR_CHECK.formatted(scope.where()), ps -> {
            ps.setLong(1, now.toEpochMilli());
            ps.setInt(scope.bind(ps, 2), limit);
        });
    }

    @Override
    public int sendingToUnknownElsewhere(Instant now, java.util.List<String> configured) {
        String notOurs = configured.isEmpty() ? "" : " AND (account IS NULL OR account NOT IN ("
                + String.join(", ", java.util.Collections.nCopies(configured.size(), "?")) + "))";
        return jdbc.update(SENDING_TO_UNKNOWN + notOurs, ps -> {
            ps.setLong(1, now.toEpochMilli());
            ps.setLong(2, now.toEpochMilli());
            for (int i = 0; i < configured.size(); i++) {
                ps.setString(3 + i, configured.get(i));
            }
        });
    }

    @Override
    public int sendingToUnknownAt(Instant now, String account) {
        return jdbc.update(SENDING_TO_UNKNOWN + " AND account = ?", ps -> {
            ps.setLong(1, now.toEpochMilli());
            ps.setLong(2, now.toEpochMilli());
            ps.setString(3, account);
        });
    }

    @Override
    public int sendingAt(String account) {
        int[] count = new int[1];
        jdbc.query(SENDING_AT, ps -> ps.setString(1, account), rs -> count[0] = rs.getInt(1));
        return count[0];
    }

    @Override
    public Optional<RowRecord> findOrder(String refId) {
        return jdbc.rows(FIND_ORDER, ps -> ps.setString(1, refId)).stream().findFirst();
    }

    @Override
    public int sendingToUnknown(Instant now) {
        return jdbc.update(SENDING_TO_UNKNOWN, ps -> {
            ps.setLong(1, now.toEpochMilli());
            ps.setLong(2, now.toEpochMilli());
        });
    }

    @Override
    public int pendingDueBy(Instant at) {
        return jdbc.update(PENDING_DUE_BY, ps -> {
            ps.setLong(1, at.toEpochMilli());
            ps.setLong(2, at.toEpochMilli());
        });
    }
}
