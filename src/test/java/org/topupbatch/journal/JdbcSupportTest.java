package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The journal's one transaction block (JdbcSupport): whole or nothing, and a read never keeps anything. */
class JdbcSupportTest {

    private final JdbcDataSource h2 = new JdbcDataSource();
    private JdbcSupport jdbc;

    @BeforeEach
    void table() throws SQLException {
        h2.setURL("jdbc:h2:mem:support-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        jdbc = new JdbcSupport(h2);
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (n INT)");
        }
    }

    @Test
    void a_transaction_commits_whole_and_answers() {
        int answer = jdbc.answerInTransaction(c -> insert(c, 1) + insert(c, 2), "cannot write t");
        assertThat(answer).isEqualTo(2);
        assertThat(rows()).isEqualTo(2);
    }

    @Test
    void a_failure_half_way_keeps_nothing_and_says_what_could_not_be_done() {
        assertThatThrownBy(() -> jdbc.inTransaction(c -> {
            insert(c, 1);
            c.createStatement().execute("INSERT INTO nowhere VALUES (1)");
        }, "cannot write t")).isInstanceOf(JournalException.class).hasMessageStartingWith("cannot write t: ");
        assertThatThrownBy(() -> jdbc.inTransaction(c -> {
            insert(c, 1);
            throw new IllegalStateException("stop");
        }, "cannot write t")).isInstanceOf(IllegalStateException.class).hasMessage("stop");
        assertThat(rows()).isZero();
    }

    @Test
    void a_read_only_block_keeps_no_write_and_gives_the_connection_back_in_auto_commit() throws SQLException {
        try (Connection c = h2.getConnection()) {
            int written = JdbcSupport.readOnly(c, r -> insert(r, 1));
            assertThat(written).isEqualTo(1);
            assertThat(c.getAutoCommit()).isTrue();
            JdbcSupport.transaction(c, w -> insert(w, 2));
            assertThat(c.getAutoCommit()).isTrue();
        }
        assertThat(rows()).isEqualTo(1);
    }

    private static int insert(Connection c, int n) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate("INSERT INTO t VALUES (" + n + ")");
        }
    }

    private int rows() {
        try (Connection c = h2.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
