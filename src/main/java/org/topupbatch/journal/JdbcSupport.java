package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * What every journal repository does with JDBC: one statement on a pooled connection in
 * auto-commit mode, so that it is committed when the call returns; a failure becomes a
 * {@link JournalException}. Row mappers are in {@link Mapping}.
 */
final class JdbcSupport {

    /** Sets a statement's parameters. */
    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** Takes one row of a result. */
    interface RowHandler {
        void handle(ResultSet rs) throws SQLException;
    }

    static final Binder NO_PARAMETERS = ps -> { };

    private static final int FETCH_SIZE = 500;

    private final DataSource dataSource;
    /** null until {@link #onPostgres} first asked. */
    private volatile Boolean postgres;

    JdbcSupport(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Whether the journal is PostgreSQL, asked once ({@link PostgresLookUps}: some look-ups are worded for it). */
    boolean onPostgres() {
        Boolean known = postgres;
        if (known == null) {
            try (Connection c = connection()) {
                known = PostgresLookUps.on(c);
            } catch (SQLException e) {
                throw failure("cannot tell the journal database's kind", e);
            }
            postgres = known;
        }
        return known;
    }

    Connection connection() {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw failure("cannot get a connection to the journal database", e);
        }
    }

    /** Work on one connection that commits whole or not at all. */
    interface Work {
        void in(Connection c) throws SQLException;
    }

    /** Work on one connection that answers something: a transaction's result, or what a snapshot read. */
    interface Answer<T> {
        T in(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction: committed when it returns, rolled back when it throws;
     * a database failure becomes a {@link JournalException} saying it could not {@code what}.
     */
    void inTransaction(Work work, String what) {
        answerInTransaction(c -> {
            work.in(c);
            return null;
        }, what);
    }

    /** As {@link #inTransaction}, for work that answers something (a count, a row). */
    <T> T answerInTransaction(Answer<T> work, String what) {
        try (Connection c = connection()) {
            return transaction(c, work);
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * The commit/rollback block, on a connection the caller holds (one not from this pool, or one whose
     * failure it words itself): committed when {@code work} returns, rolled back when it throws.
     */
    static <T> T transaction(Connection c, Answer<T> work) throws SQLException {
        c.setAutoCommit(false);
        try {
            T answer = work.in(c);
            c.commit();
            return answer;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    /**
     * A read in a transaction of its own, always rolled back (nothing to keep): what one snapshot of
     * several statements needs, and PostgreSQL's driver to stream a result (it does only with
     * auto-commit off).
     */
    static <T> T readOnly(Connection c, Answer<T> read) throws SQLException {
        c.setAutoCommit(false);
        try {
            return read.in(c);
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    int update(String sql, Binder binder) {
        try (Connection c = connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw failure("journal update failed", e);
        }
    }

    /** An INSERT into a table with a generated {@code id}; returns it. {@code what} names the record in a failure. */
    long insert(String sql, Binder binder, String what) {
        try (Connection c = connection(); PreparedStatement ps = c.prepareStatement(sql, new String[] {"id"})) {
            binder.bind(ps);
            ps.executeUpdate();
            return JdbcBatchWriter.generatedId(ps);
        } catch (SQLException e) {
            throw failure("cannot record " + what, e);
        }
    }

    void query(String sql, Binder binder, RowHandler handler) {
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

    /**
     * A cursor, not a list: on PostgreSQL the driver streams only with auto-commit off and a
     * fetch size; H2 spills large results to disk on its own. {@code what} names the rows in a failure.
     */
    void stream(String sql, Binder binder, RowHandler handler, String what) {
        try (Connection c = connection()) {
            readOnly(c, read -> {
                try (PreparedStatement ps = read.prepareStatement(sql)) {
                    ps.setFetchSize(FETCH_SIZE);
                    binder.bind(ps);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            handler.handle(rs);
                        }
                    }
                }
                return null;
            });
        } catch (SQLException e) {
            throw failure("cannot read " + what, e);
        }
    }

    List<RowRecord> rows(String sql, Binder binder) {
        List<RowRecord> rows = new ArrayList<>();
        query(sql, binder, rs -> rows.add(Mapping.row(rs)));
        return rows;
    }

    List<BatchRecord> batches(String sql, Binder binder) {
        List<BatchRecord> batches = new ArrayList<>();
        query(sql, binder, rs -> batches.add(Mapping.batch(rs)));
        return batches;
    }

    /** The single long of a one-row answer (a sum or a count), or {@code none} when no row came. */
    long single(String sql, Binder binder, String column, long none) {
        long[] value = {none};
        query(sql, binder, rs -> value[0] = rs.getLong(column));
        return value[0];
    }

    static JournalException failure(String what, SQLException e) {
        return new JournalException(what + ": " + e.getMessage(), e);
    }
}
