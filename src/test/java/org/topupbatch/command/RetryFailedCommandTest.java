package org.topupbatch.command;

import org.topupbatch.testing.OperatorJournal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.intake.BatchRow;
import org.topupbatch.intake.CsvBatchReader;
import org.topupbatch.journal.JdbcJournal;

/** {@code retry-failed BATCH} against a real H2 journal; the file it writes is read back by the intake's reader. */
class RetryFailedCommandTest {

    @TempDir
    Path dir;

    int retry(OperatorJournal j, String... args) throws Exception {
        return new RetryFailedCommand(new CommandContext(j.settings(), j.outStream(), j.errStream(), java.time.Clock.systemUTC())).run(List.of(args));
    }

    @Test
    void the_failed_and_refused_rows_go_to_the_inbox_under_new_ref_ids_with_their_extras() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        long id;
        try (JdbcJournal journal = j.open()) {
            id = OperatorJournal.fiveRowBatch(journal, "daily.csv", "D-");
        }
        assertThat(retry(j, "daily.csv")).as(j.err()).isZero();
        Path written = dir.resolve("inbox").resolve("daily.retry-" + id + ".csv");
        assertThat(j.out()).startsWith("Wrote " + written + ": 2 failed rows of batch " + id + " (daily.csv) under new"
                + " ref_ids (D-2 -> D-2-R1, D-3 -> D-3-R1)");
        try (Stream rows = new Stream(written)) {
            assertThat(rows.reader.delimiter()).isEqualTo(';');
            assertThat(rows.reader.extraHeaders()).containsExactly("customer_name");
            assertThat(rows.list).extracting(BatchRow::refId).containsExactly("D-2-R1", "D-3-R1");
            assertThat(rows.list).extracting(BatchRow::customerNo).containsExactly("081234567892", "081234567893");
            assertThat(rows.list).extracting(r -> r.extras().get(0)).containsExactly("Customer; 2", "Customer; 3");
        }
        try (var files = Files.list(dir.resolve("inbox"))) {
            assertThat(files).as("no .part file left behind").containsExactly(written);
        }
        assertThat(retry(j, Long.toString(id))).isEqualTo(1);
        assertThat(j.err()).contains("is already in the inbox");
    }

    /** Issue 37: run again after the intake took the retry file, it says so and where, and writes nothing. */
    @Test
    void run_twice_the_second_says_the_retry_file_exists_and_where() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        long id;
        try (JdbcJournal journal = j.open()) {
            id = OperatorJournal.fiveRowBatch(journal, "daily.csv", "D-");
        }
        assertThat(retry(j, "daily.csv")).as(j.err()).isZero();
        Path written = dir.resolve("inbox").resolve("daily.retry-" + id + ".csv");
        // the service takes it: out of the inbox, into the journal as a batch of its own
        Files.delete(written);
        long retryBatch;
        try (JdbcJournal journal = j.open()) {
            retryBatch = OperatorJournal.fiveRowBatch(journal, written.getFileName().toString(), "D-R-");
        }
        assertThat(retry(j, "daily.csv")).isEqualTo(1);
        assertThat(j.err()).isEqualTo("topup-batch: the retry file of batch " + id + " exists already: daily.retry-" + id
                + ".csv was taken as batch " + retryBatch + " (kept as archive/daily.retry-" + id + ".csv); its rows are"
                + " ordered there ('status " + retryBatch + "'); nothing written" + System.lineSeparator());
        assertThat(dir.resolve("inbox")).as("nothing written again").isEmptyDirectory();
    }

    @Test
    void a_batch_without_failed_rows_or_unknown_is_refused_with_one_line() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        try (JdbcJournal journal = j.open()) {
            ReportCommandTest.batch(journal, "good.csv", "G-1", 100_000L);
        }
        assertThat(retry(j, "good.csv")).isEqualTo(1);
        assertThat(j.err()).matches("topup-batch: batch \\d+ \\(good.csv\\) has no failed row; nothing to retry\\R");
        assertThat(retry(j, "nope")).isEqualTo(1);
        assertThat(j.err()).contains("no batch 'nope' in the journal");
        assertThat(dir.resolve("inbox")).isEmptyDirectory();
    }

    /** The rows of a batch file as the intake reads them. */
    @Test
    void a_failed_rows_notify_to_goes_into_the_retry_file_in_its_own_column() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        long id;
        try (JdbcJournal journal = j.open()) {
            try (org.topupbatch.journal.BatchWriter writer = journal.intake().openBatch("tell.csv", ',',
                    org.topupbatch.journal.BatchEncoding.UTF_8, List.of("customer_name"), "archive/tell.csv", 1_000_000L, "sandbox")) {
                writer.add(new org.topupbatch.journal.NewRow(0, 2, "T-1", "PULSA10", "081234567891", null, null,
                        List.of("Budi"), org.topupbatch.journal.RowState.ACCEPTED, 10_450L, null, null, null, null, "+6281234567891"));
                writer.add(new org.topupbatch.journal.NewRow(1, 3, "T-2", "PULSA10", "081234567892", null, null,
                        List.of("Sari"), org.topupbatch.journal.RowState.ACCEPTED, 10_450L, null, null, null, null, null));
                id = writer.commit();
            }
            for (String refId : List.of("T-1", "T-2")) {
                long rowId = journal.tracking().findOrder(refId).orElseThrow().id();
                journal.submission().markSending(rowId, java.time.Instant.parse("2026-11-28T01:00:00Z"));
                journal.submission().recordOutcome(rowId, org.topupbatch.journal.RowState.FAILED, null, 10_450L, "failed");
            }
        }
        assertThat(retry(j, Long.toString(id))).as(j.err()).isZero();
        try (Stream rows = new Stream(dir.resolve("inbox").resolve("tell.retry-" + id + ".csv"))) {
            assertThat(rows.list).extracting(BatchRow::notifyTo).containsExactly("+6281234567891", "");
            assertThat(rows.list).extracting(r -> r.extras().get(0)).containsExactly("Budi", "Sari");
        }
    }

    private static final class Stream implements AutoCloseable {
        final CsvBatchReader reader;
        final List<BatchRow> list = new ArrayList<>();

        Stream(Path file) throws Exception {
            reader = CsvBatchReader.open(file);
            reader.forEach(list::add);
        }

        @Override
        public void close() {
            reader.close();
        }
    }
}
