package org.topupbatch.journal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** {@link ReportingJournal} over JDBC: batches waiting for a report, their rows, and what was reported. */
final class JdbcReportingJournal implements ReportingJournal {

    private static final String BATCHES_TO_REPORT = """
            SELECT %s FROM batch
            WHERE reported_at IS NULL OR report_complete = FALSE ORDER BY id""".formatted(Mapping.BATCH_COLUMNS);
    private static final String ROWS_OF_BATCH = """
            SELECT %s FROM batch_row r WHERE r.batch_id = ? ORDER BY r.seq""".formatted(Mapping.ROW_COLUMNS);
    /** Also {@link JdbcOutbox}, which records a report together with its messages. */
    static final String MARK_REPORTED = """
            UPDATE batch SET reported_at = ?, report_complete = ?,
            balance_after = COALESCE(?, balance_after) WHERE id = ?""";
    private static final String LAST_SUBMISSION = "SELECT MAX(sent_at) AS last_sent FROM batch_row WHERE batch_id = ?";
    private static final String BATCHES_FOR_FILE = """
            SELECT %s FROM batch
            WHERE file_name = ? ORDER BY id""".formatted(Mapping.BATCH_COLUMNS);
    /** Each balance column stands with the time it was read at; the newest reading wins. */
    private static final String LATEST_BALANCE = """
            SELECT balance, read_at FROM (
            SELECT balance_after AS balance, reported_at AS read_at FROM batch WHERE balance_after IS NOT NULL
            UNION ALL SELECT balance_before, COALESCE(submit_started_at, started_at) FROM batch
            WHERE balance_before IS NOT NULL) readings
            ORDER BY read_at DESC FETCH FIRST 1 ROWS ONLY""";
    private static final String PROVIDERS_SERVED = """
            SELECT DISTINCT provider FROM batch WHERE provider IS NOT NULL
            ORDER BY provider""";

    private final JdbcSupport jdbc;
    private final JdbcCustomerVouchers vouchers;

    JdbcReportingJournal(JdbcSupport jdbc, JdbcCustomerVouchers vouchers) {
        this.vouchers = vouchers;
        this.jdbc = jdbc;
    }

    @Override
    public Optional<BatchRecord> batch(long batchId) {
        return jdbc.batches(Mapping.BATCH_BY_ID, ps -> ps.setLong(1, batchId)).stream().findFirst();
    }

    @Override
    public List<BatchRecord> batchesToReport() {
        return jdbc.batches(BATCHES_TO_REPORT, JdbcSupport.NO_PARAMETERS);
    }

    @Override
    public BatchProgress progress(long batchId) {
        Map<RowState, Long> counts = new EnumMap<>(RowState.class);
        jdbc.query(StateCountSql.OF_BATCH, ps -> StateCountSql.bindEachState(ps, batchId),
                rs -> counts.put(RowState.valueOf(rs.getString("state")), rs.getLong("n")));
        return new BatchProgress(batchId, counts);
    }

    @Override
    public void forEachRow(long batchId, Consumer<RowRecord> action) {
        jdbc.stream(ROWS_OF_BATCH, ps -> ps.setLong(1, batchId), rs -> action.accept(Mapping.row(rs)),
                "the rows of batch " + batchId);
    }

    @Override
    public void markReported(long batchId, Instant at, boolean complete, Long balanceAfter) {
        jdbc.update(MARK_REPORTED, ps -> {
            ps.setLong(1, at.toEpochMilli());
            ps.setBoolean(2, complete);
            Columns.setLong(ps, 3, balanceAfter);
            ps.setLong(4, batchId);
        });
    }

    @Override
    public Optional<Instant> lastSubmission(long batchId) {
        Instant[] last = {null};
        jdbc.query(LAST_SUBMISSION, ps -> ps.setLong(1, batchId), rs -> last[0] = Columns.getInstant(rs, "last_sent"));
        return Optional.ofNullable(last[0]);
    }

    @Override
    public List<BatchRecord> batchesForFile(String fileName) {
        return jdbc.batches(BATCHES_FOR_FILE, ps -> ps.setString(1, fileName));
    }

    @Override
    public Optional<Long> latestBalance() {
        Long[] latest = {null};
        jdbc.query(LATEST_BALANCE, JdbcSupport.NO_PARAMETERS, rs -> latest[0] = rs.getLong("balance"));
        return Optional.ofNullable(latest[0]);
    }

    @Override
    public Optional<KnownBalance> latestKnownBalance() {
        KnownBalance[] latest = {null};
        jdbc.query(LATEST_BALANCE, JdbcSupport.NO_PARAMETERS,
                rs -> latest[0] = new KnownBalance(rs.getLong("balance"), Columns.getInstant(rs, "read_at")));
        return Optional.ofNullable(latest[0]);
    }

    /** Who served the journal's batches ({@code provider} of the batch table: {@code sandbox} or a host), each once. */
    List<String> providersServed() {
        List<String> providers = new ArrayList<>();
        jdbc.query(PROVIDERS_SERVED, JdbcSupport.NO_PARAMETERS, rs -> providers.add(rs.getString("provider")));
        return providers;
    }

    @Override
    public java.util.Map<Long, String> customerNotices(long batchId) {
        return vouchers.notices(batchId);
    }

    @Override
    public java.util.Map<Long, String> notifyTargets(long batchId) {
        return vouchers.targets(batchId);
    }

    @Override
    public boolean customerMessagesWaiting(long batchId, Instant since) {
        return vouchers.waiting(batchId, since);
    }
}
