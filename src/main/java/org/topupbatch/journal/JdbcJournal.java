package org.topupbatch.journal;

import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.ProviderCall;

import com.zaxxer.hikari.HikariDataSource;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The journal over plain JDBC. Each method is one statement on a pooled connection in
 * auto-commit mode, so it is committed when the method returns; state changes are conditional
 * UPDATEs ({@code WHERE state = ...}), so two threads or a late provider answer cannot undo
 * one another: the database decides who wins.
 */
public final class JdbcJournal implements Journal {

    /** Rows the provider may still change: a sent order whose outcome is not final. */
    private static final String SENT_NOT_FINAL = "('SENDING', 'PENDING', 'UNKNOWN')";

    private static final int FETCH_SIZE = 500;

    private final DataSource dataSource;
    private final Clock clock;
    private final AutoCloseable owned;
    private volatile RowFinalListener rowFinal = RowFinalListener.NONE;

    /** A journal on a pool someone else owns and closes. */
    public JdbcJournal(DataSource dataSource, Clock clock) {
        this(dataSource, clock, null);
    }

    private JdbcJournal(DataSource dataSource, Clock clock, AutoCloseable owned) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.owned = owned;
    }

    /**
     * Opens the journal the settings point at (see {@link JournalDataSource#open}); closing
     * the journal closes its pool.
     */
    public static JdbcJournal open(Path dataDir, String jdbcUrl, String user, String password) {
        return open(dataDir, jdbcUrl, user, password, Clock.systemUTC());
    }

    /** As {@link #open(Path, String, String, String)}, with the clock that stamps created/updated times. */
    public static JdbcJournal open(Path dataDir, String jdbcUrl, String user, String password, Clock clock) {
        HikariDataSource pool = JournalDataSource.open(dataDir, jdbcUrl, user, password);
        return new JdbcJournal(pool, clock, pool);
    }

    /** Who is told, after each commit that made rows of a batch final, that its report may be due. */
    public void onRowsFinal(RowFinalListener listener) {
        this.rowFinal = listener == null ? RowFinalListener.NONE : listener;
    }

    /**
     * Opens the journal for a command that only reads it ({@code status}, {@code report}): beside a
     * running service, without its instance lock (see {@link JournalDataSource#openForReading}).
     */
    public static JdbcJournal openForReading(Path dataDir, String jdbcUrl, String user, String password) {
        HikariDataSource pool = JournalDataSource.openForReading(dataDir, jdbcUrl, user, password);
        return new JdbcJournal(pool, Clock.systemUTC(), pool);
    }

    // ---- intake

    @Override
    public BatchWriter openBatch(String fileName, char delimiter, List<String> extraHeaders, String archivedAs,
                                 Long balanceAtIntake, String provider) {
        return new JdbcBatchWriter(connection(), fileName, delimiter, extraHeaders, archivedAs, balanceAtIntake,
                provider, clock.instant(), rowFinal);
    }

    @Override
    public long recordUnreadableBatch(String fileName, String error, String archivedAs, String provider) {
        try (Connection c = connection();
             PreparedStatement ps = c.prepareStatement(
                     "INSERT INTO batch (file_name, delimiter, extra_headers, archived_as, error, started_at,"
                             + " report_complete, provider) VALUES (?, ',', '[]', ?, ?, ?, FALSE, ?)", new String[] {"id"})) {
            ps.setString(1, fileName);
            ps.setString(2, archivedAs);
            ps.setString(3, error);
            ps.setLong(4, clock.millis());
            ps.setString(5, provider);
            ps.executeUpdate();
            long batchId = JdbcBatchWriter.generatedId(ps);
            rowFinal.rowsFinal(batchId);
            return batchId;
        } catch (SQLException e) {
            throw failure("cannot record unreadable batch " + fileName, e);
        }
    }

    // ---- submit

    @Override
    public List<RowRecord> nextToSubmit(int limit) {
        return rows("SELECT " + Mapping.ROW_COLUMNS + " FROM batch_row r JOIN batch b ON b.id = r.batch_id"
                + " WHERE r.state = 'ACCEPTED' AND b.halt_reason IS NULL AND b.error IS NULL"
                + " ORDER BY r.batch_id, r.seq LIMIT ?", ps -> ps.setInt(1, limit));
    }

    @Override
    public boolean markSending(long rowId, Instant at) {
        return update("UPDATE batch_row SET state = 'SENDING', sent_at = ?, updated_at = ?"
                + " WHERE id = ? AND state = 'ACCEPTED'", ps -> {
                    ps.setLong(1, at.toEpochMilli());
                    ps.setLong(2, at.toEpochMilli());
                    ps.setLong(3, rowId);
                }) == 1;
    }

    /**
     * Only a sent, unsettled row takes an outcome, and PENDING never falls back to UNKNOWN
     * (that would forget that the provider has confirmed the order exists). A final state
     * clears the planned check.
     */
    @Override
    public boolean returnToQueue(long rowId) {
        return update("UPDATE batch_row SET state = 'ACCEPTED', sent_at = NULL, updated_at = ?"
                + " WHERE id = ? AND state = 'SENDING'", ps -> {
                    ps.setLong(1, clock.millis());
                    ps.setLong(2, rowId);
                }) == 1;
    }

    @Override
    public boolean recordOutcome(long rowId, RowState state, String serialNumber, Long price, String message) {
        if (state == RowState.ACCEPTED || state == RowState.SENDING || state == RowState.REJECTED) {
            throw new IllegalArgumentException("an outcome is PENDING, SUCCESS, FAILED, REFUSED or UNKNOWN, not " + state);
        }
        String from = state == RowState.UNKNOWN ? "('SENDING', 'UNKNOWN')" : SENT_NOT_FINAL;
        String sql = "UPDATE batch_row SET state = ?, serial_number = COALESCE(?, serial_number),"
                + " price = COALESCE(?, price), message = COALESCE(?, message), updated_at = ?"
                + (state.isFinal() ? ", next_check_at = NULL" : "")
                + " WHERE id = ? AND state IN " + from;
        boolean changed = update(sql, ps -> {
            ps.setString(1, state.name());
            ps.setString(2, serialNumber);
            Columns.setLong(ps, 3, price);
            ps.setString(4, message);
            ps.setLong(5, clock.millis());
            ps.setLong(6, rowId);
        }) == 1;
        RowFinalListener listener = rowFinal;
        if (changed && state.isFinal() && listener != RowFinalListener.NONE) {
            batchOfRow(rowId).ifPresent(listener::rowsFinal);
        }
        return changed;
    }

    private Optional<Long> batchOfRow(long rowId) {
        List<Long> batch = new ArrayList<>(1);
        query("SELECT batch_id FROM batch_row WHERE id = ?", ps -> ps.setLong(1, rowId),
                rs -> batch.add(rs.getLong("batch_id")));
        return batch.stream().findFirst();
    }

    @Override
    public void haltBatch(long batchId, String reason) {
        int halted = update("UPDATE batch SET halt_reason = ? WHERE id = ? AND halt_reason IS NULL", ps -> {
            ps.setString(1, reason);
            ps.setLong(2, batchId);
        });
        if (halted == 1) {
            rowFinal.rowsFinal(batchId);
        }
    }

    @Override
    public void recordSubmitStart(long batchId, long balanceBefore, Instant at) {
        update("UPDATE batch SET balance_before = ?, submit_started_at = ?"
                + " WHERE id = ? AND submit_started_at IS NULL", ps -> {
                    ps.setLong(1, balanceBefore);
                    ps.setLong(2, at.toEpochMilli());
                    ps.setLong(3, batchId);
                });
    }

    // ---- track

    @Override
    public List<RowRecord> rowsInState(Collection<RowState> states, int limit) {
        if (states.isEmpty()) {
            return List.of();
        }
        String in = states.stream().map(s -> "'" + s.name() + "'").distinct().collect(Collectors.joining(", "));
        return rows("SELECT " + Mapping.ROW_COLUMNS + " FROM batch_row r WHERE r.state IN (" + in + ")"
                + " ORDER BY r.id LIMIT ?", ps -> ps.setInt(1, limit));
    }

    @Override
    public List<RowRecord> dueForCheck(Instant now, int limit) {
        return rows("SELECT " + Mapping.ROW_COLUMNS + " FROM batch_row r WHERE r.state IN ('PENDING', 'UNKNOWN')"
                + " AND (r.next_check_at IS NULL OR r.next_check_at <= ?)"
                + " ORDER BY r.next_check_at NULLS FIRST, r.id LIMIT ?", ps -> {
                    ps.setLong(1, now.toEpochMilli());
                    ps.setInt(2, limit);
                });
    }

    @Override
    public void scheduleCheck(long rowId, Instant nextCheckAt, int checks) {
        update("UPDATE batch_row SET next_check_at = ?, checks = ? WHERE id = ?", ps -> {
            Columns.setInstant(ps, 1, nextCheckAt);
            ps.setInt(2, checks);
            ps.setLong(3, rowId);
        });
    }

    @Override
    public Optional<RowRecord> findOrder(String refId) {
        return rows("SELECT " + Mapping.ROW_COLUMNS + " FROM batch_row r WHERE r.order_ref_id = ?",
                ps -> ps.setString(1, refId)).stream().findFirst();
    }

    private static final String ORDERS_AMONG = "SELECT order_ref_id FROM batch_row WHERE order_ref_id IN "
            + RefIdParts.IN_LIST;

    @Override
    public java.util.Set<String> ordersAmong(Collection<String> refIds) {
        java.util.Set<String> ordered = new java.util.HashSet<>();
        for (List<String> part : RefIdParts.of(refIds)) {
            query(ORDERS_AMONG, ps -> RefIdParts.bind(ps, 1, part), rs -> ordered.add(rs.getString(1)));
        }
        return ordered;
    }

    @Override
    public int sendingToUnknown(Instant now) {
        return update("UPDATE batch_row SET state = 'UNKNOWN', next_check_at = ?, updated_at = ?"
                + " WHERE state = 'SENDING'", ps -> {
                    ps.setLong(1, now.toEpochMilli());
                    ps.setLong(2, now.toEpochMilli());
                });
    }

    // ---- report

    @Override
    public Optional<BatchRecord> batch(long batchId) {
        return batches("SELECT " + Mapping.BATCH_COLUMNS + " FROM batch WHERE id = ?",
                ps -> ps.setLong(1, batchId)).stream().findFirst();
    }

    @Override
    public Optional<BatchRecord> lastBatchForFile(String fileName) {
        return batches("SELECT " + Mapping.BATCH_COLUMNS + " FROM batch WHERE file_name = ? ORDER BY id DESC FETCH FIRST 1 ROWS ONLY",
                ps -> ps.setString(1, fileName)).stream().findFirst();
    }

    @Override
    public long reservedAmount() {
        long[] sum = {0};
        query("SELECT COALESCE(SUM(r.price), 0) AS total FROM batch_row r JOIN batch b ON b.id = r.batch_id"
                        + " WHERE r.state IN ('ACCEPTED', 'SENDING') AND b.halt_reason IS NULL",
                ps -> { }, rs -> sum[0] = rs.getLong("total"));
        return sum[0];
    }

    @Override
    public List<BatchRecord> batchesToReport() {
        return batches("SELECT " + Mapping.BATCH_COLUMNS + " FROM batch"
                + " WHERE reported_at IS NULL OR report_complete = FALSE ORDER BY id", ps -> { });
    }

    @Override
    public BatchProgress progress(long batchId) {
        Map<RowState, Long> counts = new EnumMap<>(RowState.class);
        query(countsPerState("= ?"), ps -> bindEachState(ps, batchId),
                rs -> counts.put(RowState.valueOf(rs.getString("state")), rs.getLong("n")));
        return new BatchProgress(batchId, counts);
    }

    /**
     * A cursor, not a list: on PostgreSQL the driver streams only with auto-commit off and a
     * fetch size; H2 spills large results to disk on its own.
     */
    @Override
    public void forEachRow(long batchId, Consumer<RowRecord> action) {
        try (Connection c = connection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("SELECT " + Mapping.ROW_COLUMNS
                    + " FROM batch_row r WHERE r.batch_id = ? ORDER BY r.seq")) {
                ps.setFetchSize(FETCH_SIZE);
                ps.setLong(1, batchId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        action.accept(Mapping.row(rs));
                    }
                }
            } finally {
                c.rollback(); // read only: nothing to keep
            }
        } catch (SQLException e) {
            throw failure("cannot read the rows of batch " + batchId, e);
        }
    }

    @Override
    public void markReported(long batchId, Instant at, boolean complete, Long balanceAfter) {
        update("UPDATE batch SET reported_at = ?, report_complete = ?, balance_after = COALESCE(?, balance_after)"
                + " WHERE id = ?", ps -> {
                    ps.setLong(1, at.toEpochMilli());
                    ps.setBoolean(2, complete);
                    Columns.setLong(ps, 3, balanceAfter);
                    ps.setLong(4, batchId);
                });
    }

    @Override
    public Optional<Instant> lastSubmission(long batchId) {
        Instant[] last = {null};
        query("SELECT MAX(sent_at) AS last_sent FROM batch_row WHERE batch_id = ?", ps -> ps.setLong(1, batchId),
                rs -> last[0] = Columns.getInstant(rs, "last_sent"));
        return Optional.ofNullable(last[0]);
    }

    @Override
    public List<BatchRecord> batchesForFile(String fileName) {
        return batches("SELECT " + Mapping.BATCH_COLUMNS + " FROM batch WHERE file_name = ? ORDER BY id",
                ps -> ps.setString(1, fileName));
    }

    /** Each balance column stands with the time it was read at; the newest reading wins. */
    @Override
    public Optional<Long> latestBalance() {
        Long[] latest = {null};
        query("SELECT balance FROM ("
                        + " SELECT balance_after AS balance, reported_at AS read_at FROM batch WHERE balance_after IS NOT NULL"
                        + " UNION ALL SELECT balance_before, COALESCE(submit_started_at, started_at) FROM batch"
                        + " WHERE balance_before IS NOT NULL) readings"
                        + " ORDER BY read_at DESC FETCH FIRST 1 ROWS ONLY", ps -> { },
                rs -> latest[0] = rs.getLong("balance"));
        return Optional.ofNullable(latest[0]);
    }

    /** Who served the journal's batches ({@code provider} of the batch table: {@code sandbox} or a host), each once. */
    public List<String> providersServed() {
        List<String> providers = new ArrayList<>();
        query("SELECT DISTINCT provider FROM batch WHERE provider IS NOT NULL ORDER BY provider", ps -> { },
                rs -> providers.add(rs.getString("provider")));
        return providers;
    }

    // ---- operators

    @Override
    public List<BatchRecord> recentBatches(int limit) {
        return batches("SELECT " + Mapping.BATCH_COLUMNS + " FROM batch ORDER BY id DESC FETCH FIRST ? ROWS ONLY",
                ps -> ps.setInt(1, limit));
    }

    @Override
    public List<RowRecord> rowsOfBatch(long batchId, Collection<RowState> states, int limit) {
        if (states.isEmpty()) {
            return List.of();
        }
        String in = states.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", "));
        return rows("SELECT " + Mapping.ROW_COLUMNS + " FROM batch_row r WHERE r.batch_id = ? AND r.state IN (" + in + ")"
                + " ORDER BY r.seq FETCH FIRST ? ROWS ONLY", ps -> {
                    ps.setLong(1, batchId);
                    ps.setInt(2, limit);
                });
    }

    @Override
    public long charged(long batchId) {
        long[] sum = {0};
        query("SELECT COALESCE(SUM(price), 0) AS charged FROM batch_row WHERE batch_id = ? AND state IN ('SUCCESS', 'PENDING')",
                ps -> ps.setLong(1, batchId), rs -> sum[0] = rs.getLong("charged"));
        return sum[0];
    }

    // ---- observe (dashboard, health, metrics)

    @Override
    public void ping() {
        query("SELECT 1 AS one", ps -> { }, rs -> { });
    }

    @Override
    public Map<RowState, Long> rowsByState() {
        Map<RowState, Long> counts = new EnumMap<>(RowState.class);
        query(countsPerState(null), ps -> { }, rs -> counts.merge(RowState.valueOf(rs.getString("state")), rs.getLong("n"), Long::sum));
        counts.values().removeIf(n -> n == 0);
        return counts;
    }

    @Override
    public List<BatchOverview> batchOverviews(int limit) {
        List<BatchRecord> recent = batches("SELECT " + Mapping.BATCH_COLUMNS + " FROM batch ORDER BY id DESC"
                + " FETCH FIRST " + Math.max(1, limit) + " ROWS ONLY", ps -> { });
        if (recent.isEmpty()) {
            return List.of();
        }
        long oldest = recent.get(recent.size() - 1).id();
        Map<Long, Map<RowState, Long>> counts = new java.util.HashMap<>();
        Map<Long, Long> charged = new java.util.HashMap<>();
        query(countsPerState(">= ?"), ps -> bindEachState(ps, oldest), rs -> counts
                .computeIfAbsent(rs.getLong("batch_id"), id -> new EnumMap<>(RowState.class))
                .put(RowState.valueOf(rs.getString("state")), rs.getLong("n")));
        // money only where an order was charged: few rows, not every row of a big batch
        query("SELECT batch_id, COALESCE(SUM(price), 0) AS spent FROM batch_row"
                        + " WHERE state IN ('SUCCESS', 'PENDING') AND batch_id >= ? GROUP BY batch_id",
                ps -> ps.setLong(1, oldest), rs -> charged.put(rs.getLong("batch_id"), rs.getLong("spent")));
        List<BatchOverview> overview = new ArrayList<>();
        for (BatchRecord b : recent) {
            overview.add(new BatchOverview(b, new BatchProgress(b.id(), counts.getOrDefault(b.id(), Map.of())),
                    charged.getOrDefault(b.id(), 0L)));
        }
        return overview;
    }

    /**
     * Rows per state (and batch), counted as one index range per state on (state, batch_id, seq):
     * the rows themselves are never read. {@code GROUP BY state} over a batch reads every row of
     * it, which took H2 over a second for a million-row batch; this takes under half of one.
     *
     * @param batchCondition "= ?" or "&gt;= ?" on batch_id (bound by {@link #bindEachState}), or null for all rows
     */
    private static String countsPerState(String batchCondition) {
        return java.util.Arrays.stream(RowState.values())
                .map(state -> "SELECT '" + state.name() + "' AS state, " + (batchCondition == null ? "0" : "batch_id")
                        + " AS batch_id, COUNT(*) AS n FROM batch_row WHERE state = '" + state.name() + "'"
                        + (batchCondition == null ? "" : " AND batch_id " + batchCondition + " GROUP BY batch_id"))
                .collect(Collectors.joining(" UNION ALL "));
    }

    private static void bindEachState(PreparedStatement ps, long batchId) throws SQLException {
        for (int i = 1; i <= RowState.values().length; i++) {
            ps.setLong(i, batchId);
        }
    }

    // ---- provider calls and account limits

    @Override
    public long reserveCall(Instant reservedAt, String operation) {
        try (Connection c = connection();
             PreparedStatement ps = c.prepareStatement(
                     "INSERT INTO provider_call (reserved_at, operation) VALUES (?, ?)", new String[] {"id"})) {
            ps.setLong(1, reservedAt.toEpochMilli());
            ps.setString(2, operation);
            ps.executeUpdate();
            return JdbcBatchWriter.generatedId(ps);
        } catch (SQLException e) {
            throw failure("cannot record a " + operation + " call", e);
        }
    }

    @Override
    public void completeCall(long callId, Instant answeredAt, int httpStatus) {
        update("UPDATE provider_call SET answered_at = ?, http_status = ? WHERE id = ?", ps -> {
            ps.setLong(1, answeredAt.toEpochMilli());
            ps.setInt(2, httpStatus);
            ps.setLong(3, callId);
        });
    }

    @Override
    public List<ProviderCall> callsSince(Instant since) {
        List<ProviderCall> calls = new ArrayList<>();
        query("SELECT id, reserved_at, operation, answered_at, http_status FROM provider_call"
                        + " WHERE reserved_at >= ? ORDER BY reserved_at, id",
                ps -> ps.setLong(1, since.toEpochMilli()),
                rs -> {
                    int status = rs.getInt("http_status");
                    Integer httpStatus = rs.wasNull() ? null : status;
                    calls.add(new ProviderCall(rs.getLong("id"), Columns.getInstant(rs, "reserved_at"),
                            rs.getString("operation"), Columns.getInstant(rs, "answered_at"), httpStatus));
                });
        return calls;
    }

    @Override
    public long countCallsSince(Instant since) {
        long[] count = {0};
        query("SELECT COUNT(*) AS n FROM provider_call WHERE reserved_at >= ?",
                ps -> ps.setLong(1, since.toEpochMilli()), rs -> count[0] = rs.getLong("n"));
        return count[0];
    }

    @Override
    public void pruneCalls(Instant before) {
        update("DELETE FROM provider_call WHERE reserved_at < ?", ps -> ps.setLong(1, before.toEpochMilli()));
    }

    /** One row, id 1: update it, or insert it the first time (only the limits refresh writes here). */
    @Override
    public void rememberLimits(AccountLimits limits) {
        Binder values = ps -> {
            ps.setInt(1, limits.perMinute());
            ps.setLong(2, limits.perDay());
            ps.setLong(3, limits.usedToday());
            ps.setLong(4, limits.learnedAt().toEpochMilli());
        };
        int updated = update("UPDATE account_limits SET per_minute = ?, per_day = ?, used_today = ?, learned_at = ?"
                + " WHERE id = 1", values);
        if (updated == 0) {
            update("INSERT INTO account_limits (per_minute, per_day, used_today, learned_at, id) VALUES (?, ?, ?, ?, 1)",
                    values);
        }
    }

    @Override
    public Optional<AccountLimits> rememberedLimits() {
        List<AccountLimits> limits = new ArrayList<>();
        query("SELECT per_minute, per_day, used_today, learned_at FROM account_limits WHERE id = 1", ps -> { },
                rs -> limits.add(new AccountLimits(rs.getInt("per_minute"), rs.getLong("per_day"),
                        rs.getLong("used_today"), Instant.ofEpochMilli(rs.getLong("learned_at")))));
        return limits.stream().findFirst();
    }

    @Override
    public void close() {
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new JournalException("cannot close the journal database", e);
            }
        }
    }

    // ---- plumbing

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private interface RowHandler {
        void handle(ResultSet rs) throws SQLException;
    }

    private Connection connection() {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw failure("cannot get a connection to the journal database", e);
        }
    }

    private int update(String sql, Binder binder) {
        try (Connection c = connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw failure("journal update failed", e);
        }
    }

    private void query(String sql, Binder binder, RowHandler handler) {
        try (Connection c = connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    handler.handle(rs);
                }
            }
        } catch (SQLException e) {
            throw failure("journal query failed", e);
        }
    }

    private List<RowRecord> rows(String sql, Binder binder) {
        List<RowRecord> rows = new ArrayList<>();
        query(sql, binder, rs -> rows.add(Mapping.row(rs)));
        return rows;
    }

    private List<BatchRecord> batches(String sql, Binder binder) {
        List<BatchRecord> batches = new ArrayList<>();
        query(sql, binder, rs -> batches.add(Mapping.batch(rs)));
        return batches;
    }

    private static JournalException failure(String what, SQLException e) {
        return new JournalException(what + ": " + e.getMessage(), e);
    }
}
