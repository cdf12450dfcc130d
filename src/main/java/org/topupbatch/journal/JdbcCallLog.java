package org.topupbatch.journal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.CallLog;
import org.topupbatch.provider.ProviderCall;

/**
 * The provider's {@link CallLog} kept in the journal: provider calls and the account's limits.
 *
 * <p>With several accounts (docs/accounts-and-dialects.md#several-accounts) each named account has a log of its own
 * ({@link #forAccount}): its calls are journaled under its name, and it counts those and the calls
 * journaled without an account (by a process with single-account settings, or before topup.providers
 * was set), which may have gone to any of them; its limits are remembered under its name. The single
 * account's log (no name) counts every call and keeps its limits in account_limits.
 */
final class JdbcCallLog implements CallLog {

    private static final String COLUMNS = "id, reserved_at, operation, answered_at, http_status";
    private static final String COMPLETE_CALL = "UPDATE provider_call SET answered_at = ?, http_status = ? WHERE id = ?";
    private static final String PRUNE_CALLS = "DELETE FROM provider_call WHERE reserved_at < ?";

    private static final String RESERVE_CALL = "INSERT INTO provider_call (reserved_at, operation, account) VALUES (?, ?, ?)";
    private static final String CALLS_SINCE = """
            SELECT %s FROM provider_call WHERE reserved_at >= ?
            ORDER BY reserved_at, id""".formatted(COLUMNS);
    private static final String COUNT_CALLS_SINCE = "SELECT COUNT(*) AS n FROM provider_call WHERE reserved_at >= ?";
    private static final String UPDATE_LIMITS = """
            UPDATE account_limits SET per_minute = ?, per_day = ?, used_today = ?,
            learned_at = ? WHERE id = 1""";
    private static final String INSERT_LIMITS = """
            INSERT INTO account_limits (per_minute, per_day, used_today,
            learned_at, id) VALUES (?, ?, ?, ?, 1)""";
    private static final String LIMITS = """
            SELECT per_minute, per_day, used_today, learned_at FROM account_limits
            WHERE id = 1""";

    private static final String ACCOUNT_CALLS_SINCE = """
            SELECT %s FROM provider_call
            WHERE (account = ? OR account IS NULL) AND reserved_at >= ? ORDER BY reserved_at, id""".formatted(COLUMNS);
    private static final String COUNT_ACCOUNT_CALLS_SINCE = """
            SELECT COUNT(*) AS n FROM provider_call
            WHERE (account = ? OR account IS NULL) AND reserved_at >= ?""";
    private static final String UPDATE_NAMED_LIMITS = """
            UPDATE account_limits_named SET per_minute = ?, per_day = ?,
            used_today = ?, learned_at = ? WHERE account = ?""";
    private static final String INSERT_NAMED_LIMITS = """
            INSERT INTO account_limits_named (per_minute, per_day, used_today,
            learned_at, account) VALUES (?, ?, ?, ?, ?)""";
    private static final String NAMED_LIMITS = """
            SELECT per_minute, per_day, used_today, learned_at FROM account_limits_named
            WHERE account = ?""";

    private final JdbcSupport jdbc;
    /** The named account this log is of, or null for the single account's. */
    private final String account;

    JdbcCallLog(JdbcSupport jdbc) {
        this(jdbc, null);
    }

    private JdbcCallLog(JdbcSupport jdbc, String account) {
        this.jdbc = jdbc;
        this.account = account;
    }

    /** Several accounts: the log of one named account (see the class comment). */
    CallLog forAccount(String name) {
        return new JdbcCallLog(jdbc, name);
    }

    @Override
    public long reserveCall(Instant reservedAt, String operation) {
        return jdbc.insert(RESERVE_CALL, ps -> {
            ps.setLong(1, reservedAt.toEpochMilli());
            ps.setString(2, operation);
            ps.setString(3, account);
        }, "a " + operation + " call");
    }

    @Override
    public void completeCall(long callId, Instant answeredAt, int httpStatus) {
        jdbc.update(COMPLETE_CALL, ps -> {
            ps.setLong(1, answeredAt.toEpochMilli());
            ps.setInt(2, httpStatus);
            ps.setLong(3, callId);
        });
    }

    @Override
    public List<ProviderCall> callsSince(Instant since) {
        List<ProviderCall> calls = new ArrayList<>();
        jdbc.query(account == null ? CALLS_SINCE : ACCOUNT_CALLS_SINCE, ps -> bindSince(ps, since), rs -> {
            int status = rs.getInt("http_status");
            Integer httpStatus = rs.wasNull() ? null : status;
            calls.add(new ProviderCall(rs.getLong("id"), Columns.getInstant(rs, "reserved_at"),
                    rs.getString("operation"), Columns.getInstant(rs, "answered_at"), httpStatus));
        });
        return calls;
    }

    @Override
    public long countCallsSince(Instant since) {
        return jdbc.single(account == null ? COUNT_CALLS_SINCE : COUNT_ACCOUNT_CALLS_SINCE, ps -> bindSince(ps, since), "n", 0);
    }

    /** The account's name first when the query is one account's, then the time. */
    private void bindSince(java.sql.PreparedStatement ps, Instant since) throws java.sql.SQLException {
        int i = 1;
        if (account != null) {
            ps.setString(i++, account);
        }
        ps.setLong(i, since.toEpochMilli());
    }

    @Override
    public void pruneCalls(Instant before) {
        jdbc.update(PRUNE_CALLS, ps -> ps.setLong(1, before.toEpochMilli()));
    }

    /** One row per account: update it, or insert it the first time (only the limits refresh writes here). */
    @Override
    public void rememberLimits(AccountLimits limits) {
        JdbcSupport.Binder values = ps -> {
            ps.setInt(1, limits.perMinute());
            ps.setLong(2, limits.perDay());
            ps.setLong(3, limits.usedToday());
            ps.setLong(4, limits.learnedAt().toEpochMilli());
            if (account != null) {
                ps.setString(5, account);
            }
        };
        if (jdbc.update(account == null ? UPDATE_LIMITS : UPDATE_NAMED_LIMITS, values) == 0) {
            jdbc.update(account == null ? INSERT_LIMITS : INSERT_NAMED_LIMITS, values);
        }
    }

    @Override
    public Optional<AccountLimits> rememberedLimits() {
        List<AccountLimits> limits = new ArrayList<>();
        jdbc.query(account == null ? LIMITS : NAMED_LIMITS, ps -> {
            if (account != null) {
                ps.setString(1, account);
            }
        }, rs -> limits.add(new AccountLimits(rs.getInt("per_minute"),
                rs.getLong("per_day"), rs.getLong("used_today"), Instant.ofEpochMilli(rs.getLong("learned_at")))));
        return limits.stream().findFirst();
    }
}
