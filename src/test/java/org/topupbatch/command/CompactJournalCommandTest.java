package org.topupbatch.command;

import org.topupbatch.testing.OperatorJournal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/** {@code compact-journal} on a real H2 journal: smaller afterwards, every row still there, refused while in use. */
class CompactJournalCommandTest {

    @TempDir
    Path dir;

    int compact(OperatorJournal j) throws Exception {
        return new CompactJournalCommand(new CommandContext(j.settings(), j.outStream(), j.errStream(), java.time.Clock.systemUTC())).run(List.of());
    }

    @Test
    void a_stopped_products_h2_journal_shrinks_and_keeps_every_row() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        int rows = 20_000;
        long id;
        try (JdbcJournal journal = j.open()) {
            try (BatchWriter writer = journal.intake().openBatch("big.csv", ',', List.of(), "archive/big.csv")) {
                for (int i = 0; i < rows; i++) {
                    writer.add(new NewRow(i, i + 2L, "C-" + i, "FF100", "12345678", null, null, List.of(),
                            RowState.ACCEPTED, 14_000L, null));
                }
                id = writer.commit();
            }
        }
        long before = size(dir.resolve("data/journal"));

        assertThat(compact(j)).as(j.err()).isZero();

        long after = size(dir.resolve("data/journal"));
        // a journal of fresh rows shrinks to well under two thirds (about half; the schema itself takes room)
        assertThat(after).isLessThan(before * 2 / 3);
        assertThat(j.out()).contains("compacted").contains("MB before");
        try (JdbcJournal journal = j.open()) {
            assertThat(journal.reporting().progress(id).count(RowState.ACCEPTED)).isEqualTo(rows);
            assertThat(journal.tracking().findOrder("C-" + (rows - 1))).isPresent();
        }
    }

    @Test
    void a_journal_in_use_is_left_alone_with_one_line() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        try (JdbcJournal running = j.open()) {
            assertThat(compact(j)).isEqualTo(1);
            assertThat(j.err()).contains("in use by a running topup-batch: stop it first").doesNotContain("Exception");
            assertThat(running.status().recentBatches(1)).isEmpty(); // still open and working
        }
    }

    @Test
    void without_an_h2_journal_it_says_where_it_looked() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        assertThat(compact(j)).isEqualTo(1);
        assertThat(j.err()).contains("no H2 journal at").contains("journal.mv.db");
    }

    private static long size(Path folder) throws Exception {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
