package org.topupbatch.journal;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link RowOutcomes} over JDBC, shared by submission and tracking. Only a sent, unsettled
 * row takes an outcome, and PENDING never falls back to UNKNOWN (that would forget that the
 * provider has confirmed the order exists). A final state clears the planned check.
 */
final class JdbcRowOutcomes implements RowOutcomes {

    /** Rows the provider may still change: a sent order whose outcome is not final. */
    private static final String SENT_NOT_FINAL = "('SENDING', 'PENDING', 'UNKNOWN')";
    private static final String RECORD_OUTCOME = """
            UPDATE batch_row SET state = ?, serial_number = COALESCE(?, serial_number),
            price = COALESCE(?, price), message = COALESCE(?, message), updated_at = ?""";
    private static final String CLEAR_CHECK = ", next_check_at = NULL";
    private static final String WHERE_ROW_IN = " WHERE id = ? AND state IN ";
    private static final String BATCH_OF_ROW = "SELECT batch_id FROM batch_row WHERE id = ?";
    private static final String REJECT_NEVER_TAKEN = """
            UPDATE batch_row SET state = 'REJECTED', repeat_key = NULL,
            message = ?, updated_at = ?, next_check_at = NULL WHERE id = ? AND state = 'UNKNOWN'""";
    private static final String REQUEUE_NEVER_TAKEN = """
            UPDATE batch_row SET state = 'ACCEPTED', sent_at = NULL, checks = 0,
            next_check_at = NULL, updated_at = ? WHERE id = ? AND state = 'UNKNOWN'""";
    private static final String SCHEDULE_CHECK = "UPDATE batch_row SET next_check_at = ?, checks = ? WHERE id = ?";
    // a row is sent with no check counted (queued rows have none): a count now is a hint's, made during the send
    private static final String SCHEDULE_FIRST_CHECK = "UPDATE batch_row SET next_check_at = ? WHERE id = ? AND checks = 0";

    private final JdbcSupport jdbc;
    private final Clock clock;
    private final RowFinalRelay rowFinal;
    private final JdbcCustomerVouchers vouchers;

    JdbcRowOutcomes(JdbcSupport jdbc, Clock clock, RowFinalRelay rowFinal, JdbcCustomerVouchers vouchers) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.rowFinal = rowFinal;
        this.vouchers = vouchers;
    }

    @Override
    public boolean recordOutcome(long rowId, RowState state, String serialNumber, Long price, String message) {
        if (state == RowState.ACCEPTED || state == RowState.SENDING || state == RowState.REJECTED) {
            throw new IllegalArgumentException("an outcome is PENDING, SUCCESS, FAILED, REFUSED or UNKNOWN, not " + state);
        }
        String from = state == RowState.UNKNOWN ? "('SENDING', 'UNKNOWN')" : SENT_NOT_FINAL;
        String sql = RECORD_OUTCOME + (state.isFinal() ? CLEAR_CHECK : "") + WHERE_ROW_IN + from;
        long now = clock.millis();
        JdbcSupport.Binder binder = ps -> {
            ps.setString(1, state.name());
            ps.setString(2, serialNumber);
            Columns.setLong(ps, 3, price);
            ps.setString(4, message);
            ps.setLong(5, now);
            ps.setLong(6, rowId);
        };
        // a success may owe the customer the voucher: the row and that message commit together
        boolean changed = state == RowState.SUCCESS && vouchers.active()
                ? vouchers.succeed(sql, binder, rowId, now)
                : jdbc.update(sql, binder) == 1;
        RowFinalListener listener = rowFinal.current();
        // the batch is looked up only when someone listens: no extra query per row otherwise
        if (changed && state.isFinal() && listener != RowFinalListener.NONE) {
            batchOfRow(rowId).ifPresent(listener::rowsFinal);
        }
        return changed;
    }

    private Optional<Long> batchOfRow(long rowId) {
        List<Long> batch = new ArrayList<>(1);
        jdbc.query(BATCH_OF_ROW, ps -> ps.setLong(1, rowId), rs -> batch.add(rs.getLong("batch_id")));
        return batch.stream().findFirst();
    }

    @Override
    public boolean requeueNeverTaken(long rowId) {
        return jdbc.update(REQUEUE_NEVER_TAKEN, ps -> {
            ps.setLong(1, clock.millis());
            ps.setLong(2, rowId);
        }) == 1;
    }

    @Override
    public boolean rejectNeverTaken(long rowId, String message) {
        boolean rejected = jdbc.update(REJECT_NEVER_TAKEN, ps -> {
            ps.setString(1, message);
            ps.setLong(2, clock.millis());
            ps.setLong(3, rowId);
        }) == 1;
        RowFinalListener listener = rowFinal.current();
        if (rejected && listener != RowFinalListener.NONE) {
            batchOfRow(rowId).ifPresent(listener::rowsFinal);
        }
        return rejected;
    }

    @Override
    public void scheduleCheck(long rowId, Instant nextCheckAt, int checks) {
        jdbc.update(SCHEDULE_CHECK, ps -> {
            Columns.setInstant(ps, 1, nextCheckAt);
            ps.setInt(2, checks);
            ps.setLong(3, rowId);
        });
    }

    @Override
    public void scheduleFirstCheck(long rowId, Instant nextCheckAt) {
        jdbc.update(SCHEDULE_FIRST_CHECK, ps -> {
            Columns.setInstant(ps, 1, nextCheckAt);
            ps.setLong(2, rowId);
        });
    }
}
