package org.topupbatch.journal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link ReconcileJournal} over JDBC. */
final class JdbcReconcileJournal implements ReconcileJournal {

    private static final String ORDER_STATES = "('SENDING', 'PENDING', 'SUCCESS', 'FAILED', 'UNKNOWN')";
    private static final String ORDERS_SENT_BETWEEN = """
            SELECT %s, b.file_name AS batch_file
            FROM batch_row r JOIN batch b ON b.id = r.batch_id WHERE r.sent_at >= ? AND r.sent_at < ?
            AND r.state IN %s ORDER BY r.sent_at, r.id""".formatted(Mapping.ROW_COLUMNS, ORDER_STATES);
    private static final String ORDER_BY_REF = """
            SELECT %s, b.file_name AS batch_file
            FROM batch_row r JOIN batch b ON b.id = r.batch_id WHERE r.order_ref_id = ? AND r.sent_at IS NOT NULL""".formatted(Mapping.ROW_COLUMNS);
    private static final String CORRECT = """
            UPDATE batch_row SET state = ?, serial_number = ?, price = COALESCE(?, price),
            message = ?, updated_at = ?, corrected_at = ?, next_check_at = NULL WHERE id = ?
            AND state IN ('SUCCESS', 'FAILED', 'REFUSED', 'REJECTED') AND order_ref_id IS NOT NULL""";
    private static final String RECORD = """
            INSERT INTO reconciliation (business_day, business_zone, ran_at, provider_orders, journal_orders,
            matched, exceptions, exception_count, unexplained, summary_file, accounts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";
    private static final String LAST = """
            SELECT business_day, business_zone, ran_at, provider_orders, journal_orders, matched, exceptions,
            exception_count, unexplained, summary_file, accounts FROM reconciliation ORDER BY ran_at DESC, id DESC FETCH FIRST 1 ROWS ONLY""";
    private static final String RECORD_READING = """
            INSERT INTO balance_reading (account, balance, asked_at, answered_at)
            VALUES (?, ?, ?, ?)""";
    private static final String READINGS = """
            SELECT account, balance, asked_at, answered_at FROM balance_reading
            WHERE answered_at >= ? AND answered_at < ? AND %s ORDER BY answered_at, id FETCH FIRST %d ROWS ONLY""";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Long>> COUNTS = new TypeReference<>() { };
    private static final TypeReference<LinkedHashMap<String, String>> LINES = new TypeReference<>() { };

    private final JdbcSupport jdbc;

    JdbcReconcileJournal(JdbcSupport jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<JournalOrder> ordersSentBetween(Instant from, Instant to) {
        List<JournalOrder> orders = new ArrayList<>();
        jdbc.query(ORDERS_SENT_BETWEEN, ps -> {
            ps.setLong(1, from.toEpochMilli());
            ps.setLong(2, to.toEpochMilli());
        }, rs -> orders.add(new JournalOrder(Mapping.row(rs), rs.getString("batch_file"))));
        return orders;
    }

    @Override
    public Optional<JournalOrder> orderByRef(String refId) {
        List<JournalOrder> found = new ArrayList<>(1);
        jdbc.query(ORDER_BY_REF, ps -> ps.setString(1, refId),
                rs -> found.add(new JournalOrder(Mapping.row(rs), rs.getString("batch_file"))));
        return found.stream().findFirst();
    }

    @Override
    public boolean correctOutcome(long rowId, RowState state, String serialNumber, Long price, String message, Instant at) {
        if (state != RowState.SUCCESS && state != RowState.FAILED) {
            throw new IllegalArgumentException("a corrected order is SUCCESS or FAILED, not " + state);
        }
        return jdbc.update(CORRECT, ps -> {
            ps.setString(1, state.name());
            ps.setString(2, serialNumber);
            Columns.setLong(ps, 3, price);
            ps.setString(4, message);
            ps.setLong(5, at.toEpochMilli());
            ps.setLong(6, at.toEpochMilli());
            ps.setLong(7, rowId);
        }) == 1;
    }

    @Override
    public void recordReconciliation(Reconciliation run, List<Outbox.OutgoingMessage> notices) {
        String exceptions;
        String accounts;
        try {
            exceptions = JSON.writeValueAsString(run.exceptions());
            accounts = run.accounts().isEmpty() ? null : JSON.writeValueAsString(run.accounts());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        jdbc.inTransaction(c -> {
            try (java.sql.PreparedStatement ps = c.prepareStatement(RECORD)) {
                ps.setString(1, run.day());
                ps.setString(2, run.zone());
                ps.setLong(3, run.ranAt().toEpochMilli());
                ps.setLong(4, run.providerOrders());
                ps.setLong(5, run.journalOrders());
                ps.setLong(6, run.matched());
                ps.setString(7, exceptions);
                ps.setLong(8, run.exceptionCount());
                Columns.setLong(ps, 9, run.unexplained());
                ps.setString(10, run.summaryFile());
                ps.setString(11, accounts);
                ps.executeUpdate();
            }
            JdbcOutbox.insert(c, notices, run.ranAt().toEpochMilli());
        }, "cannot record the reconciliation of " + run.day());
    }

    @Override
    public Optional<Reconciliation> lastReconciliation() {
        List<Reconciliation> found = new ArrayList<>(1);
        jdbc.query(LAST, ps -> { }, rs -> {
            Map<String, Long> exceptions;
            try {
                exceptions = JSON.readValue(rs.getString("exceptions"), COUNTS);
            } catch (JsonProcessingException e) {
                exceptions = Map.of();
            }
            Long unexplained = rs.getLong("unexplained");
            if (rs.wasNull()) {
                unexplained = null;
            }
            Map<String, String> accounts = Map.of();
            String each = rs.getString("accounts");
            if (each != null) {
                try {
                    accounts = JSON.readValue(each, LINES);
                } catch (JsonProcessingException e) {
                    accounts = Map.of();
                }
            }
            found.add(new Reconciliation(rs.getString("business_day"), rs.getString("business_zone"), Instant.ofEpochMilli(rs.getLong("ran_at")),
                    rs.getLong("provider_orders"), rs.getLong("journal_orders"), rs.getLong("matched"), exceptions,
                    rs.getLong("exception_count"), unexplained, rs.getString("summary_file"), accounts));
        });
        return found.stream().findFirst();
    }

    @Override
    public void recordBalanceReading(BalanceReading reading) {
        jdbc.update(RECORD_READING, ps -> {
            ps.setString(1, reading.account());
            ps.setLong(2, reading.balance());
            ps.setLong(3, reading.askedAt().toEpochMilli());
            ps.setLong(4, reading.answeredAt().toEpochMilli());
        });
    }

    @Override
    public List<BalanceReading> balanceReadings(String account, Instant from, Instant to, int limit) {
        List<BalanceReading> readings = new ArrayList<>();
        String sql = READINGS.formatted(account == null ? "account IS NULL" : "account = ?", Math.max(1, limit));
        jdbc.query(sql, ps -> {
            ps.setLong(1, from.toEpochMilli());
            ps.setLong(2, to.toEpochMilli());
            if (account != null) {
                ps.setString(3, account);
            }
        }, rs -> readings.add(new BalanceReading(rs.getString("account"), rs.getLong("balance"),
                Instant.ofEpochMilli(rs.getLong("asked_at")), Instant.ofEpochMilli(rs.getLong("answered_at")))));
        return readings;
    }
}
