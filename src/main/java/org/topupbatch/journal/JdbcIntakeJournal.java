package org.topupbatch.journal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@link IntakeJournal} over JDBC: batches recorded from files, and what earlier batches still hold. */
final class JdbcIntakeJournal implements IntakeJournal {

    private static final String INSERT_UNREADABLE_BATCH = """
            INSERT INTO batch (file_name, delimiter, extra_headers,
            archived_as, error, started_at, report_complete, provider) VALUES (?, ',', '[]', ?, ?, ?, FALSE, ?)""";
    private static final String ORDERS_AMONG = """
            SELECT order_ref_id FROM batch_row WHERE order_ref_id IN %s""".formatted(RefIdParts.IN_LIST);
    private static final String ANY_ROW = "SELECT 1 FROM batch_row FETCH FIRST 1 ROWS ONLY";
    private static final String LAST_BATCH_FOR_FILE = """
            SELECT %s FROM batch
            WHERE file_name = ? ORDER BY id DESC FETCH FIRST 1 ROWS ONLY""".formatted(Mapping.BATCH_COLUMNS);
    private static final String RESERVED_AMOUNT = """
            SELECT COALESCE(SUM(r.price), 0) AS total FROM batch_row r
            JOIN batch b ON b.id = r.batch_id WHERE r.state IN ('ACCEPTED', 'WAITING', 'SENDING') AND b.halt_reason IS NULL""";

    private final JdbcSupport jdbc;
    private final Clock clock;
    private final RowFinalRelay rowFinal;

    JdbcIntakeJournal(JdbcSupport jdbc, Clock clock, RowFinalRelay rowFinal) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.rowFinal = rowFinal;
    }

    @Override
    public BatchWriter openBatch(String fileName, char delimiter, BatchEncoding encoding, List<String> extraHeaders,
                                 String archivedAs, Long balanceAtIntake, String provider) {
        return new JdbcBatchWriter(jdbc.connection(), fileName, delimiter, encoding, extraHeaders, archivedAs, balanceAtIntake,
                provider, clock.instant(), rowFinal.current());
    }

    @Override
    public long recordUnreadableBatch(String fileName, String error, String archivedAs, String provider) {
        long batchId = jdbc.insert(INSERT_UNREADABLE_BATCH, ps -> {
            ps.setString(1, fileName);
            ps.setString(2, archivedAs);
            ps.setString(3, error);
            ps.setLong(4, clock.millis());
            ps.setString(5, provider);
        }, "unreadable batch " + fileName);
        rowFinal.current().rowsFinal(batchId);
        return batchId;
    }

    @Override
    public Set<String> ordersAmong(Collection<String> refIds) {
        Set<String> ordered = new HashSet<>();
        boolean postgres = jdbc.onPostgres(); // a key at a time, through the index, even before statistics
        for (List<String> part : RefIdParts.of(refIds)) {
            jdbc.query(postgres ? PostgresLookUps.ORDERS_AMONG : ORDERS_AMONG,
                    ps -> bindOrders(ps, part, postgres), rs -> ordered.add(rs.getString(1)));
        }
        return ordered;
    }

    @Override
    public boolean holdsRows() {
        boolean[] any = {false};
        jdbc.query(ANY_ROW, ps -> { }, rs -> any[0] = true);
        return any[0];
    }

    @Override
    public java.util.Map<String, EarlierOrder> repeatsAmong(Collection<String> repeatKeys, long windowStart) {
        java.util.Map<String, EarlierOrder> found = new java.util.HashMap<>();
        boolean postgres = jdbc.onPostgres();
        for (List<String> part : RefIdParts.of(repeatKeys)) {
            jdbc.query(postgres ? PostgresLookUps.FIND_REPEATS : JdbcBatchWriter.FIND_REPEATS,
                    ps -> JdbcBatchWriter.bindRepeats(ps, part, windowStart, postgres), rs -> {
                EarlierOrder earlier = JdbcBatchWriter.earlier(rs, -1, windowStart);
                if (earlier != null) {
                    found.merge(rs.getString("repeat_key"), earlier, JdbcBatchWriter::preferred);
                }
            });
        }
        return found;
    }

    private static void bindOrders(PreparedStatement ps, List<String> refIds, boolean postgres) throws SQLException {
        if (postgres) {
            PostgresLookUps.bindOrders(ps, refIds);
        } else {
            RefIdParts.bind(ps, 1, refIds);
        }
    }

    @Override
    public Optional<BatchRecord> lastBatchForFile(String fileName) {
        return jdbc.batches(LAST_BATCH_FOR_FILE, ps -> ps.setString(1, fileName)).stream().findFirst();
    }

    @Override
    public long reservedAmount() {
        return jdbc.single(RESERVED_AMOUNT, JdbcSupport.NO_PARAMETERS, "total", 0);
    }
}
