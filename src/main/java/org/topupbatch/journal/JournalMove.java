package org.topupbatch.journal;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Moves a whole journal from one database to another with the same schema version (an H2 file to
 * PostgreSQL): every table, referenced tables first, each in key order, keeping every id; all in
 * one transaction on the target, so a failure leaves it without journal data. Afterwards each
 * identity continues after the highest copied id, and every row of every table is compared
 * between the two databases.
 */
public final class JournalMove {

    private static final int BATCH_SIZE = 1_000;
    private static final int FETCH_SIZE = 1_000;

    /** How many rows a table had, copied and compared. */
    public record TableMoved(String table, long rows) {
    }

    private JournalMove() {
    }

    /**
     * @throws JournalException naming the table (and row) when the target already holds journal
     *                          data, a copy fails, or the comparison finds a difference
     */
    public static List<TableMoved> move(DataSource from, DataSource to) {
        JournalTables tables;
        try (Connection target = to.getConnection()) {
            tables = JournalTables.of(target);
            refuseNonEmpty(target, tables);
        } catch (SQLException e) {
            throw new JournalException("cannot read the target journal: " + e.getMessage(), e);
        }
        copy(from, to, tables);
        return compare(from, to, tables);
    }

    private static void refuseNonEmpty(Connection target, JournalTables tables) throws SQLException {
        for (JournalTables.Table t : tables.tables()) {
            long rows = count(target, t.name());
            if (rows > 0) {
                throw new JournalException("the target database already holds journal data (table " + t.name()
                        + ": " + rows + " rows); a journal moves only into an empty database");
            }
        }
    }

    private static void copy(DataSource from, DataSource to, JournalTables tables) {
        try (Connection source = from.getConnection(); Connection target = to.getConnection()) {
            source.setReadOnly(true);
            JdbcSupport.transaction(target, copying -> {
                for (JournalTables.Table t : tables.tables()) {
                    copyTable(source, copying, t);
                    continueIdentities(copying, t);
                }
                return null;
            });
        } catch (SQLException e) {
            throw new JournalException("cannot copy the journal: " + e.getMessage(), e);
        }
    }

    private static void copyTable(Connection source, Connection target, JournalTables.Table t) throws SQLException {
        String placeholders = String.join(", ", t.columns().stream().map(c -> "?").toList());
        try (Statement read = source.createStatement();
             PreparedStatement write = target.prepareStatement(
                     "INSERT INTO " + t.name() + " (" + t.columnList() + ") VALUES (" + placeholders + ")")) {
            read.setFetchSize(FETCH_SIZE);
            try (ResultSet rs = read.executeQuery("SELECT " + t.columnList() + " FROM " + t.name() + " ORDER BY " + t.key())) {
                int pending = 0;
                while (rs.next()) {
                    for (int i = 1; i <= t.columns().size(); i++) {
                        Object value = rs.getObject(i);
                        if (value == null) {
                            write.setNull(i, t.sqlTypes().get(i - 1));
                        } else {
                            write.setObject(i, value);
                        }
                    }
                    write.addBatch();
                    if (++pending == BATCH_SIZE) {
                        write.executeBatch();
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    write.executeBatch();
                }
            }
        }
    }

    /** Explicit ids do not move an identity on: without this the next new row would take id 1 again. */
    private static void continueIdentities(Connection target, JournalTables.Table t) throws SQLException {
        for (String column : t.identities()) {
            long next;
            try (Statement s = target.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(" + column + "), 0) + 1 FROM " + t.name())) {
                rs.next();
                next = rs.getLong(1);
            }
            try (Statement s = target.createStatement()) {
                s.execute("ALTER TABLE " + t.name() + " ALTER COLUMN " + column + " RESTART WITH " + next);
            }
        }
    }

    private static List<TableMoved> compare(DataSource from, DataSource to, JournalTables tables) {
        List<TableMoved> moved = new ArrayList<>();
        try (Connection source = from.getConnection(); Connection target = to.getConnection()) {
            // PostgreSQL streams a result only inside a transaction
            JdbcSupport.readOnly(target, reading -> {
                for (JournalTables.Table t : tables.tables()) {
                    moved.add(new TableMoved(t.name(), compareTable(source, reading, t)));
                }
                return null;
            });
        } catch (SQLException e) {
            throw new JournalException("cannot compare the moved journal: " + e.getMessage(), e);
        }
        return moved;
    }

    private static long compareTable(Connection source, Connection target, JournalTables.Table t) throws SQLException {
        String sql = "SELECT " + t.columnList() + " FROM " + t.name() + " ORDER BY " + t.key();
        long rows = 0;
        try (Statement a = source.createStatement(); Statement b = target.createStatement()) {
            a.setFetchSize(FETCH_SIZE);
            b.setFetchSize(FETCH_SIZE);
            try (ResultSet was = a.executeQuery(sql); ResultSet is = b.executeQuery(sql)) {
                while (true) {
                    boolean hasWas = was.next();
                    boolean hasIs = is.next();
                    if (hasWas != hasIs) {
                        throw new JournalException("the moved journal differs: table " + t.name() + " has "
                                + (hasWas ? "fewer" : "more") + " rows than the H2 journal after " + rows);
                    }
                    if (!hasWas) {
                        return rows;
                    }
                    rows++;
                    for (int i = 1; i <= t.columns().size(); i++) {
                        if (!same(was.getObject(i), is.getObject(i))) {
                            throw new JournalException("the moved journal differs: table " + t.name() + ", row "
                                    + rows + " in " + t.key() + " order, column " + t.columns().get(i - 1));
                        }
                    }
                }
            }
        }
    }

    /** Equal values, whatever Java type each driver chose for a number. */
    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
        }
        return Objects.equals(a, b);
    }

    private static long count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
