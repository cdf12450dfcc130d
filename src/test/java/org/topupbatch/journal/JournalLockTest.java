package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One active instance per PostgreSQL journal. The embedded server must start: a machine where it
 * cannot fails this test, it never skips.
 */
class JournalLockTest {

    private static EmbeddedPostgres server;
    private static int databases;

    @TempDir
    Path data;

    @BeforeAll
    static void startServer() throws Exception {
        server = EmbeddedPostgres.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static String newDatabase() throws Exception {
        String name = "lock_" + (++databases);
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return server.getJdbcUrl("postgres", name);
    }

    private static String databaseName(String url) {
        String tail = url.substring(url.lastIndexOf('/') + 1);
        return tail.contains("?") ? tail.substring(0, tail.indexOf('?')) : tail;
    }

    @Test
    void nodes_open_one_journal_together_and_the_lock_alone_says_which_is_active() throws Exception {
        String url = newDatabase();
        try (JdbcJournal first = JdbcJournal.open(data, url, "postgres", null);
             JdbcJournal second = JdbcJournal.open(data, url, "postgres", null);
             JournalLock a = JournalLock.session(url, "postgres", null, "node-a");
             JournalLock b = JournalLock.session(url, "postgres", null, "node-b")) {
            assertThat(second.reporting().batchesToReport()).isEmpty();
            assertThat(a.tryHold()).isTrue();
            assertThat(a.tryHold()).as("held: taking it again changes nothing").isTrue();
            assertThat(b.tryHold()).isFalse();
            assertThat(b.holder()).contains("node-a");
            assertThat(a.stillHeld(2)).isTrue();
            assertThatThrownBy(() -> JournalLock.tryTake(url, "postgres", null))
                    .isInstanceOf(JournalInUseException.class)
                    .hasMessage("another topup-batch instance is active on journal " + url + "; only one may submit");
            a.close();
            assertThat(a.stillHeld(2)).isFalse();
            assertThat(takenWithin(b, 10)).as("freed with its session").isTrue();
            assertThat(b.holder()).contains("node-b");
        }
    }

    @Test
    void a_node_ends_its_own_lost_session_from_a_new_one_and_takes_the_lock_again() throws Exception {
        String url = newDatabase();
        try (JournalLock old = JournalLock.session(url, "postgres", null, "node-a");
             JournalLock fresh = JournalLock.session(url, "postgres", null, "node-a")) {
            assertThat(old.tryHold()).isTrue();
            // the node lost "old" through a cut link; the server still keeps it, and its lock
            assertThat(fresh.tryHold()).as("behind its own old session").isFalse();
            assertThat(fresh.end(fresh.id())).as("a session never ends itself").isFalse();
            assertThat(fresh.end(new JournalLock.SessionId(old.id().pid(), "1999-01-01 00:00:00+00")))
                    .as("a pid now used by another backend (another start) is left alone").isFalse();
            assertThat(old.stillHeld()).isTrue();
            assertThat(fresh.end(old.id())).isTrue();
            assertThat(takenWithin(fresh, 10)).as("the old session's lock is free once it is ended").isTrue();
            assertThat(old.stillHeld()).isFalse();
        }
    }

    @Test
    void a_lock_session_asks_the_server_to_end_it_once_its_node_is_silent_5_s() throws Exception {
        String url = newDatabase();
        try (JournalLock lock = JournalLock.session(url, "postgres", null, "node-a")) {
            assertThat(JournalLock.SERVER_SIDE_BOUND).contains("tcp_user_timeout=5000", "tcp_keepalives_idle=1",
                    "tcp_keepalives_interval=1", "tcp_keepalives_count=5");
            assertThat(lock.serverSetting("tcp_user_timeout")).isEqualTo("5000");
            assertThat(lock.serverSetting("tcp_keepalives_idle")).isEqualTo("1");
        }
    }

    @Test
    void the_urls_own_options_and_the_locks_bound_both_apply_and_the_bound_wins_a_clash() throws Exception {
        // an operator's options= (a schema, and a timeout of their own) used to replace the lock's bound
        String url = newDatabase() + "&options=-c%20search_path%3Dtopup_own%20-c%20tcp_user_timeout%3D60000";
        try (JournalLock lock = JournalLock.session(url, "postgres", null, "node-a")) {
            assertThat(lock.serverSetting("search_path")).isEqualTo("topup_own");
            assertThat(lock.serverSetting("tcp_user_timeout")).isEqualTo("5000");
            assertThat(lock.serverSetting("tcp_keepalives_idle")).isEqualTo("1");
        }
        try (JournalLock taken = JournalLock.tryTake(url, "postgres", null)) {
            assertThat(taken.serverSetting("search_path")).isEqualTo("topup_own");
            assertThat(taken.serverSetting("tcp_keepalives_count")).isEqualTo("5");
        }
    }

    @Test
    void the_lock_session_url_loses_only_its_options_parameter() {
        assertThat(LockSessionOptions.of("jdbc:postgresql://db/topup", "-c a=1"))
                .isEqualTo(new LockSessionOptions("jdbc:postgresql://db/topup", "-c a=1"));
        assertThat(LockSessionOptions.of("jdbc:postgresql://db/topup?ssl=true&options=-c%20search_path%3Dx&connectTimeout=3", "-c a=1"))
                .isEqualTo(new LockSessionOptions("jdbc:postgresql://db/topup?ssl=true&connectTimeout=3", "-c search_path=x -c a=1"));
        assertThat(LockSessionOptions.of("jdbc:postgresql://db/topup?options=", "-c a=1"))
                .isEqualTo(new LockSessionOptions("jdbc:postgresql://db/topup", "-c a=1"));
    }

    @Test
    void journals_in_other_databases_of_the_same_server_do_not_block_each_other() throws Exception {
        try (JdbcJournal a = JdbcJournal.open(data, newDatabase(), "postgres", null);
             JdbcJournal b = JdbcJournal.open(data, newDatabase(), "postgres", null)) {
            assertThat(a.reporting().batchesToReport()).isEmpty();
            assertThat(b.reporting().batchesToReport()).isEmpty();
        }
    }

    @Test
    void when_the_holders_connection_dies_a_waiting_standby_takes_the_lock() throws Exception {
        String url = newDatabase();
        try (JournalLock active = JournalLock.tryTake(url, "postgres", null)) {
            CompletableFuture<JournalLock> standby = CompletableFuture.supplyAsync(
                    () -> JournalLock.await(url, "postgres", null));
            assertThat(standby).isNotDone();
            // the active instance's lock connection is cut, as when its process or host dies
            try (Connection admin = server.getPostgresDatabase().getConnection(); Statement s = admin.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pg_terminate_backend(l.pid) FROM pg_locks l "
                         + "JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND l.granted "
                         + "AND d.datname = '" + databaseName(url) + "'")) {
                assertThat(rs.next()).as("the active instance holds a lock connection").isTrue();
                assertThat(rs.getBoolean(1)).isTrue();
            }
            try (JournalLock taken = standby.get(30, TimeUnit.SECONDS)) {
                assertThatThrownBy(() -> JournalLock.tryTake(url, "postgres", null))
                        .isInstanceOf(JournalInUseException.class);
            }
        }
    }

    /** The server ends a closed session a moment later: a standby tries again, as it does every second. */
    private static boolean takenWithin(JournalLock lock, int seconds) throws Exception {
        return org.topupbatch.testing.Poll.atMost(java.time.Duration.ofSeconds(seconds), lock::tryHold, Boolean.TRUE::equals);
    }
}
