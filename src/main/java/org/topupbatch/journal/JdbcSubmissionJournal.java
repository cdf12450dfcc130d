package org.topupbatch.journal;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@link SubmissionJournal} over JDBC. State changes are conditional UPDATEs ({@code WHERE state = ...}),
 * so two threads or a late provider answer cannot undo one another: the database decides who wins.
 */
final class JdbcSubmissionJournal extends JdbcRowOutcomesHolder implements SubmissionJournal {

    private static final String NEXT_TO_SUBMIT = """
            SELECT %s FROM batch_row r JOIN batch b ON b.id = r.batch_id
            WHERE r.state = 'ACCEPTED' AND b.halt_reason IS NULL AND b.error IS NULL
            AND b.held_at IS NULL AND b.cancelled_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM product_outage o WHERE o.product_sku = r.product_sku AND o.held = TRUE)
            ORDER BY r.batch_id, r.seq LIMIT ?""".formatted(Mapping.ROW_COLUMNS);
    /** Batches that have rows to send now (their own queue order: oldest first); %s: the rows' account scope (or ""). */
    private static final String ACTIVE_BATCHES = """
            SELECT b.id FROM batch b WHERE b.report_complete = FALSE
            AND b.halt_reason IS NULL AND b.error IS NULL AND b.held_at IS NULL AND b.cancelled_at IS NULL
            AND EXISTS (SELECT 1 FROM batch_row r WHERE r.state = 'ACCEPTED' AND r.batch_id = b.id %s)
            ORDER BY b.id""";
    /** One batch's next rows; %s: the account scope's condition (AccountScope#where) or "". */
    private static final String NEXT_OF_BATCH = """
            SELECT %s FROM batch_row r
            WHERE r.state = 'ACCEPTED' AND r.batch_id = ?
            AND NOT EXISTS (SELECT 1 FROM product_outage o WHERE o.product_sku = r.product_sku AND o.held = TRUE) %s
            ORDER BY r.seq LIMIT ?""".formatted(Mapping.ROW_COLUMNS, "%s");
    private static final String REJECT_UNSENT = """
            UPDATE batch_row SET state = 'REJECTED', order_ref_id = NULL,
            repeat_key = NULL, message = ?, updated_at = ? WHERE id = ? AND state = 'ACCEPTED'""";
    private static final String BATCH_OF_ROW = "SELECT batch_id FROM batch_row WHERE id = ?";
    // an operator's hold or cancel, from any process, is obeyed by the very statement that lets a row go
    private static final String MARK_SENDING = """
            UPDATE batch_row SET state = 'SENDING', sent_at = ?, updated_at = ?
            WHERE id = ? AND state = 'ACCEPTED' AND NOT EXISTS (SELECT 1 FROM batch b WHERE b.id = batch_row.batch_id
            AND (b.held_at IS NOT NULL OR b.cancelled_at IS NOT NULL))""";
    private static final String RETURN_TO_QUEUE = """
            UPDATE batch_row SET state = 'ACCEPTED', sent_at = NULL, updated_at = ?
            WHERE id = ? AND state = 'SENDING'""";
    private static final String FALL_BACK = """
            UPDATE batch_row SET state = 'ACCEPTED', attempt = attempt + 1, price = ?,
            message = ?, sent_at = NULL, checks = 0, next_check_at = NULL, updated_at = ?, account = ?
            WHERE id = ? AND attempt = ? AND state = 'SENDING'""";
    private static final String MOVE_ON_UNSENT = """
            UPDATE batch_row SET attempt = attempt + 1, price = ?, message = ?,
            updated_at = ?, account = ? WHERE id = ? AND attempt = ? AND state = 'ACCEPTED'""";
    private static final String ROUTE_OF_ROW = "SELECT route FROM batch_row WHERE id = ?";
    private static final String HALT_BATCH = "UPDATE batch SET halt_reason = ? WHERE id = ? AND halt_reason IS NULL";
    private static final String RECORD_SUBMIT_START = """
            UPDATE batch SET balance_before = ?, submit_started_at = ?
            WHERE id = ? AND submit_started_at IS NULL""";

    private final JdbcSupport jdbc;
    private final Clock clock;
    private final RowFinalRelay rowFinal;

    JdbcSubmissionJournal(JdbcSupport jdbc, Clock clock, RowFinalRelay rowFinal, RowOutcomes outcomes) {
        super(outcomes);
        this.jdbc = jdbc;
        this.clock = clock;
        this.rowFinal = rowFinal;
    }

    /**
     * Fair shares: with several batches active, each gives up to an equal share of the rows, taken in
     * turn (the first row of each, then the second of each, ...), each batch in its file order; so a
     * small batch dropped behind a large one goes out in the next round, not after it.
     */
    @Override
    public List<RowRecord> nextToSubmit(int limit) {
        return fairShares(limit, "", (ps, from) -> from);
    }

    /** Several accounts on two nodes: as {@link #nextToSubmit(int)}, only the rows in {@code scope}. */
    @Override
    public List<RowRecord> nextToSubmitAt(int limit, AccountScope scope) {
        return scope.isEmpty() ? List.of() : fairShares(limit, scope.where(), scope::bind);
    }

    /** Binds a condition's values from parameter {@code from} on; returns the next parameter's index. */
    private interface ConditionValues {
        int bind(java.sql.PreparedStatement ps, int from) throws java.sql.SQLException;
    }

    /** The fair shares of the rows that also meet {@code where} (a leading AND on {@code r.}, or ""). */
    private List<RowRecord> fairShares(int limit, String where, ConditionValues values) {
        List<Long> active = new java.util.ArrayList<>();
        jdbc.query(ACTIVE_BATCHES.formatted(where),
                ps -> values.bind(ps, 1), rs -> active.add(rs.getLong(1)));
        if (active.size() <= 1 && where.isEmpty()) {
            return jdbc.rows(NEXT_TO_SUBMIT, ps -> ps.setInt(1, limit));
        }
        int share = Math.max(1, (limit + Math.max(1, active.size()) - 1) / Math.max(1, active.size()));
        String ofBatch = NEXT_OF_BATCH.formatted(where);
        List<List<RowRecord>> queues = new java.util.ArrayList<>();
        for (long batchId : active) {
            queues.add(jdbc.rows(ofBatch, ps -> {
                ps.setLong(1, batchId);
                ps.setInt(values.bind(ps, 2), share);
            }));
        }
        return inTurn(queues, share, limit);
    }

    /**
     * Rows routed before the journal kept each row's account (V20) get it from their route and attempt,
     * so that the node leading it takes them; returns how many. Only rows not yet final matter.
     */
    @Override
    public int fillRowAccounts() {
        List<long[]> ids = new java.util.ArrayList<>();
        List<String> accounts = new java.util.ArrayList<>();
        jdbc.query("SELECT id, route, attempt FROM batch_row WHERE account IS NULL AND route IS NOT NULL"
                + " AND state IN ('ACCEPTED', 'SENDING', 'PENDING', 'UNKNOWN')", ps -> { }, rs -> {
                    ids.add(new long[] {rs.getLong(1)});
                    accounts.add(RowRoute.read(rs.getString(2)).at(rs.getInt(3)).account());
                });
        int filled = 0;
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i)[0];
            String account = accounts.get(i);
            filled += jdbc.update("UPDATE batch_row SET account = ? WHERE id = ? AND account IS NULL", ps -> {
                ps.setString(1, account);
                ps.setLong(2, id);
            });
        }
        return filled;
    }

    /** The first row of each batch's queue, then the second of each, ..., at most {@code limit}. */
    private static List<RowRecord> inTurn(List<List<RowRecord>> queues, int share, int limit) {
        List<RowRecord> inTurn = new java.util.ArrayList<>(limit);
        for (int i = 0; i < share && inTurn.size() < limit; i++) {
            for (List<RowRecord> queue : queues) {
                if (i < queue.size() && inTurn.size() < limit) {
                    inTurn.add(queue.get(i));
                }
            }
        }
        return inTurn;
    }

    @Override
    public boolean markSending(long rowId, Instant at) {
        return jdbc.update(MARK_SENDING, ps -> {
            ps.setLong(1, at.toEpochMilli());
            ps.setLong(2, at.toEpochMilli());
            ps.setLong(3, rowId);
        }) == 1;
    }

    @Override
    public boolean markSending(long rowId, int attempt, Instant at) {
        return jdbc.update(MARK_SENDING + " AND attempt = ?", ps -> {
            ps.setLong(1, at.toEpochMilli());
            ps.setLong(2, at.toEpochMilli());
            ps.setLong(3, rowId);
            ps.setInt(4, attempt);
        }) == 1;
    }

    @Override
    public boolean rejectUnsent(long rowId, String message) {
        boolean rejected = jdbc.update(REJECT_UNSENT, ps -> {
            ps.setString(1, message);
            ps.setLong(2, clock.millis());
            ps.setLong(3, rowId);
        }) == 1;
        if (rejected) {
            jdbc.query(BATCH_OF_ROW, ps -> ps.setLong(1, rowId), rs -> rowFinal.current().rowsFinal(rs.getLong(1)));
        }
        return rejected;
    }

    @Override
    public boolean moveOnUnsent(long rowId, int attempt, long price, String message) {
        return moveOn(MOVE_ON_UNSENT, rowId, attempt, price, message);
    }

    @Override
    public boolean fallBack(long rowId, int attempt, long price, String message) {
        return moveOn(FALL_BACK, rowId, attempt, price, message);
    }

    private boolean moveOn(String sql, long rowId, int attempt, long price, String message) {
        String[] route = new String[1];
        jdbc.query(ROUTE_OF_ROW, ps -> ps.setLong(1, rowId), rs -> route[0] = rs.getString(1));
        // the account it moves to, for the node that leads it (nextToSubmit with accounts)
        String next = route[0] == null ? null : RowRoute.read(route[0]).at(attempt + 1).account();
        return jdbc.update(sql, ps -> {
            ps.setLong(1, price);
            ps.setString(2, message);
            ps.setLong(3, clock.millis());
            ps.setString(4, next);
            ps.setLong(5, rowId);
            ps.setInt(6, attempt);
        }) == 1;
    }

    @Override
    public boolean returnToQueue(long rowId) {
        return jdbc.update(RETURN_TO_QUEUE, ps -> {
            ps.setLong(1, clock.millis());
            ps.setLong(2, rowId);
        }) == 1;
    }

    @Override
    public boolean haltBatch(long batchId, String reason, List<Outbox.OutgoingMessage> notices) {
        boolean halted = jdbc.answerInTransaction(c -> {
            try (java.sql.PreparedStatement ps = c.prepareStatement(HALT_BATCH)) {
                ps.setString(1, reason);
                ps.setLong(2, batchId);
                if (ps.executeUpdate() != 1) {
                    return false; // stopped already: told then
                }
            }
            JdbcOutbox.insert(c, notices, clock.millis());
            return true;
        }, "cannot record the stop of batch " + batchId);
        if (halted) {
            rowFinal.current().rowsFinal(batchId);
        }
        return halted;
    }

    @Override
    public void recordSubmitStart(long batchId, long balanceBefore, Instant at) {
        jdbc.update(RECORD_SUBMIT_START, ps -> {
            ps.setLong(1, balanceBefore);
            ps.setLong(2, at.toEpochMilli());
            ps.setLong(3, batchId);
        });
    }

    @Override
    public Optional<BatchRecord> batch(long batchId) {
        return jdbc.batches(Mapping.BATCH_BY_ID, ps -> ps.setLong(1, batchId)).stream().findFirst();
    }

    @Override
    public List<RowRecord> rowsInState(Collection<RowState> states, int limit) {
        if (states.isEmpty()) {
            return List.of();
        }
        // the states are enum names, never input: safe to write into the statement
        String in = states.stream().map(s -> "'" + s.name() + "'").distinct().collect(Collectors.joining(", "));
        return jdbc.rows("SELECT " + Mapping.ROW_COLUMNS + " FROM batch_row r WHERE r.state IN (" + in + ")"
                + " ORDER BY r.id LIMIT ?", ps -> ps.setInt(1, limit));
    }
}
