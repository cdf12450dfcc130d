package org.topupbatch.command;

import org.topupbatch.testing.OperatorJournal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.JournalLock;
import org.topupbatch.testing.PostgresServer;

/** {@code status [BATCH]} reads the journal only: no provider exists here, and the service may hold it. */
class StatusCommandTest {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @TempDir
    Path dir;

    static final Clock NOW = Clock.fixed(OperatorJournal.SENT.plusSeconds(3 * 60 + 7), ZoneOffset.UTC);

    int status(OperatorJournal j, String... args) throws Exception {
        return new StatusCommand(new CommandContext(j.settings(), j.outStream(), j.errStream(), NOW)).run(List.of(args));
    }

    @Test
    void on_postgresql_status_reads_while_the_service_holds_the_journal_lock() throws Exception {
        OperatorJournal j = new OperatorJournal(dir).on(POSTGRES.createDatabase());
        try (JdbcJournal service = j.open()) { // holds the advisory lock, as a running service does
            long id = OperatorJournal.fiveRowBatch(service, "daily.csv", "D-");
            assertThat(status(j)).as(j.err()).isZero();
            assertThat(j.out()).contains("BATCH").contains("CHARGED")
                    .containsPattern(id + "\\s+daily.csv\\s+5\\s+1\\s+2\\s+1\\s+0\\s+1\\s+Rp 20.900\\s+tracking");
            assertThat(status(j, "daily.csv")).as(j.err()).isZero();
            assertThat(j.out()).containsPattern("PENDING\\s+5\\s+D-4\\s+3m07s");
        }
    }

    @Test
    void on_postgresql_status_first_names_the_active_node_and_those_standing_by() throws Exception {
        PostgresServer.Database db = POSTGRES.createDatabase();
        PostgresServer.Database otherJournal = POSTGRES.createDatabase();
        OperatorJournal j = new OperatorJournal(dir).on(db);
        try (JdbcJournal journal = j.open()) {
            OperatorJournal.fiveRowBatch(journal, "daily.csv", "D-");
        }
        // the lock sessions of two nodes, as JournalLockClusterView keeps them, and a node of another journal
        try (JournalLock a = JournalLock.session(db.url(), db.user(), db.password(), "topup-a");
             JournalLock b = JournalLock.session(db.url(), db.user(), db.password(), "topup-b");
             JournalLock elsewhere = JournalLock.session(otherJournal.url(), otherJournal.user(), otherJournal.password(),
                     "topup-x")) {
            assertThat(a.tryHold()).isTrue();
            assertThat(b.tryHold()).isFalse();
            assertThat(elsewhere.tryHold()).isTrue();
            assertThat(status(j)).as(j.err()).isZero();
            String connected = "connected \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}";
            assertThat(j.out().lines().findFirst().orElse(""))
                    .matches("Nodes: topup-a \\(active, " + connected + "\\), topup-b \\(standing by, " + connected + "\\)");
            assertThat(j.out()).doesNotContain("topup-x")
                    .containsPattern("\\s+daily.csv\\s+5\\s+");

            a.close(); // the active node dies: its lock goes with its session, and the standby takes it
            // the server ends the closed session a moment later: a standby tries again, as it does every second
            boolean taken = org.topupbatch.testing.Poll.atMost(java.time.Duration.ofSeconds(10), b::tryHold, Boolean.TRUE::equals);
            assertThat(taken).as("the standby holds the lock once the active session is gone").isTrue();
            j.out.reset();
            assertThat(status(j)).as(j.err()).isZero();
            assertThat(j.out().lines().findFirst().orElse("")).matches("Nodes: topup-b \\(active, " + connected + "\\)");
        }
        j.out.reset();
        assertThat(status(j)).as(j.err()).isZero();
        assertThat(j.out()).startsWith("Nodes: none is connected to this journal" + System.lineSeparator());
    }

    @Test
    void on_h2_status_names_a_batch_and_its_waiting_orders() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        long id;
        try (JdbcJournal journal = j.open()) {
            id = OperatorJournal.fiveRowBatch(journal, "daily.csv", "D-");
        }
        assertThat(status(j, Long.toString(id))).as(j.err()).isZero();
        assertThat(j.out()).containsPattern("PENDING\\s+5\\s+D-4\\s+3m07s");
        assertThat(status(j)).as(j.err()).isZero();
        assertThat(j.out()).as("one process serves an H2 journal: no nodes to name").doesNotContain("Nodes:");
    }

    /** A row waiting for the order it repeats was never sent: queued in status as in summary.json, not pending. */
    @Test
    void a_row_waiting_for_the_order_it_repeats_counts_as_queued_as_in_the_summary() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        long id;
        try (JdbcJournal journal = j.open()) {
            String key = "TSEL10\u001F081234567890\u001F";
            try (org.topupbatch.journal.BatchWriter w = journal.intake().openBatch("a.csv", ',', List.of(), "archive/a.csv")) {
                w.add(new org.topupbatch.journal.NewRow(0, 2, "A-1", "TSEL10", "081234567890", null, null, List.of(),
                        org.topupbatch.journal.RowState.ACCEPTED, 10_450L, null, key, null, null));
                w.commit();
            }
            try (org.topupbatch.journal.BatchWriter w = journal.intake().openBatch("b.csv", ',', List.of(), "archive/b.csv")) {
                w.add(new org.topupbatch.journal.NewRow(0, 2, "B-1", "TSEL10", "081234567890", null, null, List.of(),
                        org.topupbatch.journal.RowState.WAITING, 10_450L, "waits for ref_id A-1", key, null, "A-1"));
                id = w.commit();
            }
        }
        assertThat(status(j)).as(j.err()).isZero();
        // id, file, rows, success, failed, pending, queued, rejected
        assertThat(j.out()).containsPattern("(?m)^" + id + "\\s+b\\.csv\\s+1\\s+0\\s+0\\s+0\\s+1\\s+0\\s");
    }

    @Test
    void an_unknown_batch_is_refused_with_one_line() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        assertThat(status(j)).isZero();
        assertThat(j.out()).contains("No batch in the journal yet.");
        assertThat(status(j, "nope.csv")).isEqualTo(1);
        assertThat(j.err()).isEqualTo("topup-batch: no batch 'nope.csv' in the journal; give a batch id (first column"
                + " of 'status', \"batch\" in summary.json) or the name of a file that was taken" + System.lineSeparator());
    }
}
