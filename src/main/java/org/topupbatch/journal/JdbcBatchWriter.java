package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One batch written in one transaction on one connection. Rows go to the database in JDBC batches
 * of {@link #CHUNK}.
 *
 * <p>ref_ids: the planner announces a chunk's ref_ids with {@link #expect}, answered by one query
 * for the whole chunk instead of one per row; only the ref_ids of rows not yet sent are held in
 * memory, the database answers for the rest, so memory stays flat whatever the file's size.
 * Not thread-safe: intake reads one file on one thread.
 */
final class JdbcBatchWriter implements BatchWriter {

    static final int CHUNK = 1_000;
    /** Characters of rows held for one round-trip at most: wide rows go in smaller chunks, so memory stays flat. */
    static final long CHUNK_CHARS = 2_000_000;

    private static final String INSERT_ROW = """
            INSERT INTO batch_row (batch_id, seq, line, ref_id, order_ref_id,
            product_sku, customer_no, customer_no_zone, max_price, extras, state, price, message,
            created_at, updated_at, checks, repeat_key, route, account, waits_for, notify_to)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)""";
    /** Where ref_ids are used: the first line in this batch (rejected rows too), and whether any batch orders it. */
    private static final String FIND_REF_USES = """
            SELECT ref_id, MIN(CASE WHEN batch_id = ? THEN line END) AS line,
            COUNT(order_ref_id) AS orders FROM batch_row WHERE ref_id IN %s GROUP BY ref_id""".formatted(RefIdParts.IN_LIST);

    /**
     * The rows with these repeat keys sent, or accepted, since the window's start; which of them
     * count ({@link #earlier(ResultSet, long, long)}) is decided in Java, not here: the only indexed
     * condition must be the repeat key, so that the database cannot but look each key up in
     * ix_batch_row_repeat (V11). With the states in the WHERE clause PostgreSQL, its statistics not
     * yet updated after a big intake, chose the state index and read all 1,000,000 rows of the
     * benchmark's journal (250 ms a chunk instead of a few). sent_at and created_at have no index.
     */
    static final String FIND_REPEATS = """
            SELECT r.repeat_key, r.ref_id, r.batch_id, r.line, r.state, r.sent_at,
            r.created_at, r.waits_for, b.file_name, b.halt_reason FROM batch_row r JOIN batch b ON b.id = r.batch_id
            WHERE r.repeat_key IN %s AND (r.sent_at >= ? OR r.created_at >= ?)""".formatted(RefIdParts.IN_LIST);

    private final Connection connection;
    private final long batchId;
    private final long now;
    /** PostgreSQL is asked its look-ups one value at a time ({@link PostgresLookUps}); H2 by IN lists. */
    private final boolean postgres;
    private final PreparedStatement insertRow;
    private PreparedStatement findRefUses;
    private PreparedStatement findRepeats;
    /** Accepted rows of the unsent chunk: repeat key -> the first of them. */
    private final Map<String, EarlierOrder> unflushedKeys = new HashMap<>();
    /** What the database said of the repeat keys asked about since rows were last sent (null value: none). */
    private final Map<String, EarlierOrder> knownRepeats = new HashMap<>();
    private final Set<String> unflushedRefIds = new HashSet<>();
    /** Every row of the unsent chunk, rejected ones too: ref_id -> first line. */
    private final Map<String, Long> unflushedLines = new HashMap<>();
    /** What the database said of the ref_ids asked about since rows were last sent (then it would go stale). */
    private final Map<String, RefIdUse> known = new HashMap<>();
    private int unflushed;
    private long unflushedChars;
    private final RowFinalListener rowFinal;
    private boolean committed;
    private boolean closed;

    /** Takes ownership of {@code connection}: it is closed by {@link #close()}. */
    JdbcBatchWriter(Connection connection, String fileName, char delimiter, BatchEncoding encoding, List<String> extraHeaders,
                    String archivedAs, Long balanceAtIntake, String provider, Instant now, RowFinalListener rowFinal) {
        this.connection = connection;
        this.rowFinal = rowFinal;
        this.now = now.toEpochMilli();
        try {
            connection.setAutoCommit(false);
            this.postgres = PostgresLookUps.on(connection);
            if (postgres) {
                PostgresLookUps.planThroughIndexes(connection); // the rows written have no statistics: see there
            }
            this.batchId = insertBatch(fileName, delimiter, encoding, extraHeaders, archivedAs, balanceAtIntake, provider);
            this.insertRow = connection.prepareStatement(INSERT_ROW);
        } catch (SQLException e) {
            closeQuietly();
            throw new JournalException("cannot start recording batch " + fileName, e);
        }
    }

    private long insertBatch(String fileName, char delimiter, BatchEncoding encoding, List<String> extraHeaders,
                             String archivedAs, Long balanceAtIntake, String provider) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "INSERT INTO batch (file_name, delimiter, extra_headers, archived_as, started_at, report_complete,"
                        + " balance_before, provider, encoding) VALUES (?, ?, ?, ?, ?, FALSE, ?, ?, ?)",
                new String[] {"id"})) {
            ps.setString(1, fileName);
            ps.setString(2, String.valueOf(delimiter));
            ps.setString(3, JsonText.write(extraHeaders == null ? List.of() : extraHeaders));
            ps.setString(4, archivedAs);
            ps.setLong(5, now);
            Columns.setLong(ps, 6, balanceAtIntake);
            ps.setString(7, provider);
            ps.setString(8, (encoding == null ? BatchEncoding.UTF_8 : encoding).stored());
            ps.executeUpdate();
            return generatedId(ps);
        }
    }

    static long generatedId(Statement statement) throws SQLException {
        try (ResultSet keys = statement.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new SQLException("the database returned no generated id");
            }
            return keys.getLong(1);
        }
    }

    /** Where the database (earlier batches, and this one's rows already sent) uses a ref_id. */
    private record RefIdUse(Long lineInThisBatch, boolean ordered) {
        static final RefIdUse NONE = new RefIdUse(null, false);
    }

    @Override
    public void expect(Collection<String> refIds) {
        requireOpen();
        flush(); // the rows added so far are in the database, so its answer covers them
        askDatabase(refIds);
    }

    /** Asks the database where these ref_ids are used, a part at a time, and keeps the answers in {@link #known}. */
    private void askDatabase(Collection<String> refIds) {
        try {
            if (findRefUses == null) {
                findRefUses = connection.prepareStatement(postgres ? PostgresLookUps.FIND_REF_USES : FIND_REF_USES);
            }
            for (List<String> part : RefIdParts.of(refIds)) {
                if (postgres) {
                    PostgresLookUps.bindRefUses(findRefUses, part, batchId);
                } else {
                    findRefUses.setLong(1, batchId);
                    RefIdParts.bind(findRefUses, 2, part);
                }
                try (ResultSet rs = findRefUses.executeQuery()) {
                    while (rs.next()) {
                        known.put(rs.getString("ref_id"), use(rs));
                    }
                }
                for (String refId : part) {
                    known.putIfAbsent(refId, RefIdUse.NONE);
                }
            }
        } catch (SQLException e) {
            throw new JournalException("cannot look up the ref_ids of batch " + batchId + ": " + e.getMessage(), e);
        }
    }

    private static RefIdUse use(ResultSet rs) throws SQLException {
        long line = rs.getLong("line");
        Long lineInThisBatch = rs.wasNull() || line <= 0 ? null : line;
        return new RefIdUse(lineInThisBatch, rs.getLong("orders") > 0);
    }

    @Override
    public void expectRepeats(Collection<String> repeatKeys, long windowStart) {
        requireOpen();
        flush();
        askRepeats(repeatKeys, windowStart);
    }

    private void askRepeats(Collection<String> repeatKeys, long windowStart) {
        try {
            if (findRepeats == null) {
                findRepeats = connection.prepareStatement(postgres ? PostgresLookUps.FIND_REPEATS : FIND_REPEATS);
            }
            for (List<String> part : RefIdParts.of(repeatKeys)) {
                bindRepeats(findRepeats, part, windowStart, postgres);
                Map<String, EarlierOrder> found = new HashMap<>();
                try (ResultSet rs = findRepeats.executeQuery()) {
                    while (rs.next()) {
                        EarlierOrder earlier = earlier(rs, batchId, windowStart);
                        if (earlier != null) {
                            found.merge(rs.getString("repeat_key"), earlier, JdbcBatchWriter::preferred);
                        }
                    }
                }
                for (String key : part) {
                    knownRepeats.put(key, found.get(key));
                }
            }
            repeatWindowStart = windowStart;
        } catch (SQLException e) {
            throw new JournalException("cannot look up earlier orders for batch " + batchId + ": " + e.getMessage(), e);
        }
    }

    private Long repeatWindowStart;

    /**
     * A row FIND_REPEATS found, when it is an order a new row would repeat, else null: sent and not
     * failed (SENDING, PENDING, SUCCESS, UNKNOWN) since {@code windowStart}, or ACCEPTED or WAITING
     * since then and going to be sent (its batch not halted). FAILED, REFUSED and REJECTED rows never
     * are. A row of {@code batchId} is told as a line of this file.
     */
    /** Binds {@link #FIND_REPEATS}, or on PostgreSQL {@link PostgresLookUps#FIND_REPEATS}, to these keys. */
    static void bindRepeats(PreparedStatement ps, List<String> keys, long windowStart, boolean postgres) throws SQLException {
        if (postgres) {
            PostgresLookUps.bindRepeats(ps, keys, windowStart);
        } else {
            RefIdParts.bind(ps, 1, keys);
            ps.setLong(RefIdParts.SIZE + 1, windowStart);
            ps.setLong(RefIdParts.SIZE + 2, windowStart);
        }
    }

    static EarlierOrder earlier(ResultSet rs, long batchId, long windowStart) throws SQLException {
        long rowBatch = rs.getLong("batch_id");
        long sentAt = rs.getLong("sent_at");
        boolean sent = !rs.wasNull();
        String state = rs.getString("state");
        boolean counts = switch (state) {
            case "SENDING", "PENDING", "SUCCESS", "UNKNOWN" -> sent && sentAt >= windowStart;
            case "ACCEPTED", "WAITING" -> rs.getLong("created_at") >= windowStart && rs.getString("halt_reason") == null;
            default -> false;
        };
        if (!counts) {
            return null;
        }
        String waitsFor = state.equals("WAITING") ? rs.getString("waits_for") : null;
        if (rowBatch == batchId) {
            return EarlierOrder.inThisFile(rs.getString("ref_id"), rs.getLong("line"), waitsFor);
        }
        String refId = rs.getString("ref_id");
        return new EarlierOrder(refId, rowBatch, rs.getString("file_name"), rs.getLong("line"),
                sent ? sentAt : rs.getLong("created_at"), sent, false, RowState.valueOf(state),
                waitsFor == null ? refId : waitsFor);
    }

    /**
     * A delivered order first (a row repeating it is rejected whatever else is in flight), the latest
     * of them; then this file's first row (as plan finds it); else the latest order of earlier batches.
     */
    static EarlierOrder preferred(EarlierOrder a, EarlierOrder b) {
        if (a.succeeded() != b.succeeded()) {
            return a.succeeded() ? a : b;
        }
        if (a.thisFile() || b.thisFile()) {
            if (a.thisFile() && b.thisFile()) {
                return a.line() <= b.line() ? a : b;
            }
            return a.thisFile() ? a : b;
        }
        return a.at() >= b.at() ? a : b;
    }

    @Override
    public EarlierOrder earlierOrder(String repeatKey, long windowStart) {
        requireOpen();
        if (repeatKey == null) {
            return null;
        }
        if (!knownRepeats.containsKey(repeatKey) || repeatWindowStart == null || repeatWindowStart != windowStart) {
            askRepeats(List.of(repeatKey), windowStart); // rows not yet sent are in unflushedKeys
        }
        EarlierOrder known = knownRepeats.get(repeatKey);
        EarlierOrder unflushed = unflushedKeys.get(repeatKey);
        return known == null ? unflushed : unflushed == null ? known : preferred(known, unflushed);
    }

    @Override
    public boolean refIdTaken(String refId) {
        requireOpen();
        if (refId == null) {
            return false;
        }
        return unflushedRefIds.contains(refId) || lookUp(refId).ordered();
    }

    @Override
    public Long lineInThisBatch(String refId) {
        requireOpen();
        if (refId == null || refId.isEmpty()) {
            return null;
        }
        Long line = lookUp(refId).lineInThisBatch();
        return line != null ? line : unflushedLines.get(refId);
    }

    /** From what {@link #expect} learned, or the database's answer for a ref_id nobody announced. */
    private RefIdUse lookUp(String refId) {
        if (refId.isEmpty()) {
            return RefIdUse.NONE; // no row records an empty ref_id as an order or a first line
        }
        if (!known.containsKey(refId)) {
            askDatabase(List.of(refId)); // rows not yet sent are seen by the caller in the unflushed maps
        }
        return known.get(refId);
    }

    @Override
    public void add(NewRow row) {
        requireOpen();
        if (row.state() != RowState.ACCEPTED && row.state() != RowState.REJECTED && row.state() != RowState.WAITING) {
            throw new IllegalArgumentException("a new row is ACCEPTED, WAITING or REJECTED, not " + row.state());
        }
        if ((row.state() == RowState.WAITING) != (row.waitsFor() != null)) {
            throw new IllegalArgumentException("a WAITING row, and only it, names the order it waits for");
        }
        boolean order = row.state() != RowState.REJECTED;
        try {
            insertRow.setLong(1, batchId);
            insertRow.setInt(2, row.seq());
            insertRow.setLong(3, row.line());
            insertRow.setString(4, row.refId());
            if (order) {
                insertRow.setString(5, row.refId());
            } else {
                insertRow.setNull(5, Types.VARCHAR);
            }
            insertRow.setString(6, row.productSku());
            insertRow.setString(7, row.customerNo());
            insertRow.setString(8, row.customerNoZone());
            Columns.setLong(insertRow, 9, row.maxPrice());
            insertRow.setString(10, row.extras() == null || row.extras().isEmpty() ? null : JsonText.write(row.extras()));
            insertRow.setString(11, row.state().name());
            Columns.setLong(insertRow, 12, row.price());
            insertRow.setString(13, row.message());
            insertRow.setLong(14, now);
            insertRow.setLong(15, now);
            insertRow.setString(16, order ? row.repeatKey() : null);
            insertRow.setString(17, order ? RowRoute.write(row.route()) : null);
            insertRow.setString(18, order && row.route() != null ? row.route().at(1).account() : null);
            insertRow.setString(19, row.waitsFor());
            insertRow.setString(20, order ? row.notifyTo() : null);
            insertRow.addBatch();
        } catch (SQLException e) {
            throw new JournalException("cannot record row " + row.seq() + " of batch " + batchId, e);
        }
        if (order && row.refId() != null) {
            unflushedRefIds.add(row.refId());
        }
        if (row.refId() != null && !row.refId().isEmpty()) {
            unflushedLines.putIfAbsent(row.refId(), row.line());
        }
        if (order && row.repeatKey() != null) {
            unflushedKeys.putIfAbsent(row.repeatKey(), EarlierOrder.inThisFile(row.refId(), row.line(), row.waitsFor()));
        }
        unflushedChars += row.chars();
        if (++unflushed >= CHUNK || unflushedChars >= CHUNK_CHARS) {
            flush();
        }
    }

    private void flush() {
        if (unflushed == 0) {
            return;
        }
        try {
            insertRow.executeBatch();
        } catch (SQLException e) {
            throw new JournalException("cannot record rows of batch " + batchId + ": " + e.getMessage(), e);
        }
        unflushed = 0;
        unflushedChars = 0;
        unflushedRefIds.clear();
        unflushedLines.clear();
        known.clear();
        unflushedKeys.clear();
        knownRepeats.clear();
    }

    @Override
    public void rejectAllAccepted(String message) {
        requireOpen();
        flush();
        try (PreparedStatement ps = connection.prepareStatement(
                "UPDATE batch_row SET state = 'REJECTED', message = ?, price = NULL, order_ref_id = NULL, repeat_key = NULL,"
                        + " waits_for = NULL WHERE batch_id = ? AND state IN ('ACCEPTED', 'WAITING')")) {
            ps.setString(1, message);
            ps.setLong(2, batchId);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new JournalException("cannot reject the rows of batch " + batchId, e);
        }
    }

    @Override
    public long commit() {
        requireOpen();
        flush();
        try {
            connection.commit();
        } catch (SQLException e) {
            throw new JournalException("cannot commit batch " + batchId, e);
        }
        committed = true;
        rowFinal.rowsFinal(batchId); // rejected rows are final: a batch without orders is reported at once
        return batchId;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!committed) {
                connection.rollback();
            }
        } catch (SQLException e) {
            throw new JournalException("cannot roll back batch " + batchId, e);
        } finally {
            closeQuietly();
        }
    }

    private void closeQuietly() {
        try {
            connection.close(); // the pool resets auto-commit
        } catch (SQLException ignored) {
            // the connection is gone either way; the pool replaces it
        }
    }

    private void requireOpen() {
        if (closed || committed) {
            throw new IllegalStateException("batch " + batchId + " is already " + (committed ? "committed" : "closed"));
        }
    }
}
