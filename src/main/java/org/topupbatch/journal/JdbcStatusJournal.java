package org.topupbatch.journal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** {@link StatusJournal} over JDBC: what operators, the dashboard, health and metrics read. */
final class JdbcStatusJournal implements StatusJournal {

    private static final String RECENT_BATCHES = """
            SELECT %s FROM batch ORDER BY id DESC
            FETCH FIRST ? ROWS ONLY""".formatted(Mapping.BATCH_COLUMNS);
    private static final String CHARGED = """
            SELECT COALESCE(SUM(price), 0) AS charged FROM batch_row
            WHERE batch_id = ? AND state IN ('SUCCESS', 'PENDING')""";
    private static final String PING = "SELECT 1 AS one";
    /** Money only where an order was charged: few rows, not every row of a big batch. */
    private static final String CHARGED_FROM_BATCH = """
            SELECT batch_id, COALESCE(SUM(price), 0) AS spent FROM batch_row
            WHERE state IN ('SUCCESS', 'PENDING') AND batch_id >= ? GROUP BY batch_id""";
    /**
     * Several accounts: a batch's routed rows grouped in SQL by where they stand; a batch's rows share a
     * few routes (one per product and price list), so the groups are few however many rows there are.
     */
    private static final String BY_ACCOUNT = """
            SELECT route, attempt, state, COUNT(*) AS n, COALESCE(SUM(price), 0) AS prices
            FROM batch_row WHERE batch_id = ? AND route IS NOT NULL AND state <> 'REJECTED' GROUP BY route, attempt, state""";

    private final JdbcSupport jdbc;

    JdbcStatusJournal(JdbcSupport jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<BatchRecord> recentBatches(int limit) {
        return jdbc.batches(RECENT_BATCHES, ps -> ps.setInt(1, limit));
    }

    @Override
    public List<RowRecord> rowsOfBatch(long batchId, Collection<RowState> states, int limit) {
        if (states.isEmpty()) {
            return List.of();
        }
        // the states are enum names, never input: safe to write into the statement
        String in = states.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", "));
        return jdbc.rows("SELECT " + Mapping.ROW_COLUMNS + " FROM batch_row r WHERE r.batch_id = ? AND r.state IN (" + in + ")"
                + " ORDER BY r.seq FETCH FIRST ? ROWS ONLY", ps -> {
                    ps.setLong(1, batchId);
                    ps.setInt(2, limit);
                });
    }

    @Override
    public long charged(long batchId) {
        return jdbc.single(CHARGED, ps -> ps.setLong(1, batchId), "charged", 0);
    }

    @Override
    public Map<String, AccountCounts> accountCounts(long batchId) {
        Map<String, AccountCounts> counts = new TreeMap<>();
        jdbc.query(BY_ACCOUNT, ps -> ps.setLong(1, batchId), rs -> {
            int attempt = rs.getInt("attempt");
            String account = RowRoute.read(rs.getString("route")).at(attempt).account();
            counts.put(account, counts.getOrDefault(account, AccountCounts.NONE)
                    .plus(RowState.valueOf(rs.getString("state")), attempt, rs.getLong("n"), rs.getLong("prices")));
        });
        return counts;
    }

    @Override
    public void ping() {
        jdbc.query(PING, JdbcSupport.NO_PARAMETERS, rs -> { });
    }

    @Override
    public Map<RowState, Long> rowsByState() {
        Map<RowState, Long> counts = new EnumMap<>(RowState.class);
        jdbc.query(StateCountSql.ALL_ROWS, JdbcSupport.NO_PARAMETERS,
                rs -> counts.merge(RowState.valueOf(rs.getString("state")), rs.getLong("n"), Long::sum));
        counts.values().removeIf(n -> n == 0);
        return counts;
    }

    @Override
    public List<BatchOverview> batchOverviews(int limit) {
        List<BatchRecord> recent = jdbc.batches("SELECT " + Mapping.BATCH_COLUMNS + " FROM batch ORDER BY id DESC"
                + " FETCH FIRST " + Math.max(1, limit) + " ROWS ONLY", JdbcSupport.NO_PARAMETERS);
        if (recent.isEmpty()) {
            return List.of();
        }
        long oldest = recent.get(recent.size() - 1).id();
        Map<Long, Map<RowState, Long>> counts = new HashMap<>();
        Map<Long, Long> charged = new HashMap<>();
        jdbc.query(StateCountSql.FROM_BATCH, ps -> StateCountSql.bindEachState(ps, oldest), rs -> counts
                .computeIfAbsent(rs.getLong("batch_id"), id -> new EnumMap<>(RowState.class))
                .put(RowState.valueOf(rs.getString("state")), rs.getLong("n")));
        jdbc.query(CHARGED_FROM_BATCH, ps -> ps.setLong(1, oldest),
                rs -> charged.put(rs.getLong("batch_id"), rs.getLong("spent")));
        List<BatchOverview> overview = new ArrayList<>();
        for (BatchRecord b : recent) {
            overview.add(new BatchOverview(b, new BatchProgress(b.id(), counts.getOrDefault(b.id(), Map.of())),
                    charged.getOrDefault(b.id(), 0L)));
        }
        return overview;
    }
}
