package org.topupbatch.journal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.PostgresServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A big file taken into a PostgreSQL journal: while the intake transaction fills batch_row, the
 * table has no statistics for its rows (nobody analyses rows not yet committed), so PostgreSQL
 * estimates that a look-up of 1,000 keys matches much of the table and reads every row written so
 * far for each chunk: quadratic in the file's size (BENCHMARKS.md, PostgreSQL intake). The look-ups
 * of the ref_ids and the repeat keys must go through their indexes however many rows the
 * transaction has written: the server's own counters must show no sequential read of batch_row.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostgresIntakePlanTest {

    private static final PostgresServer POSTGRES = new PostgresServer();
    /** Enough chunks that a plan which scans would show it many times; small enough to take seconds. */
    private static final int CHUNKS = 20;

    private PostgresServer.Database database;
    private Path data;
    private JdbcJournal journal;

    @BeforeEach
    void open() throws IOException {
        database = POSTGRES.createDatabase();
        data = Files.createTempDirectory("topup-pg-intake-plan-");
        journal = JdbcJournal.open(data, database.url(), database.user(), database.password());
    }

    @AfterEach
    void close() throws IOException {
        journal.close();
        try (Stream<Path> files = Files.walk(data)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    void lookUpsOfABigIntakeUseTheIndexesNotAScanOfTheRowsWritten() throws SQLException {
        long windowStart = 0;
        long scansBefore = counters().seqScans();
        int line = 2;
        try (BatchWriter writer = journal.intake().openBatch("big.csv", ',', List.of(), "archive/big.csv")) {
            for (int chunk = 0; chunk < CHUNKS; chunk++) {
                List<String> refIds = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < JdbcBatchWriter.CHUNK; i++) {
                    int n = chunk * JdbcBatchWriter.CHUNK + i;
                    refIds.add("INV-" + n);
                    keys.add("FF100|" + (100_000_000 + n) + "|");
                }
                writer.expect(refIds);
                writer.expectRepeats(keys, windowStart);
                for (int i = 0; i < JdbcBatchWriter.CHUNK; i++) {
                    assertThat(writer.refIdTaken(refIds.get(i))).isFalse();
                    assertThat(writer.earlierOrder(keys.get(i), windowStart)).isNull();
                    writer.add(new NewRow(line - 2, line, refIds.get(i), "FF100", String.valueOf(100_000_000 + chunk * 1000 + i),
                            null, 15_000L, List.of(), RowState.ACCEPTED, 15_000L, null, keys.get(i)));
                    line++;
                }
            }
            writer.commit();
        }
        int rows = CHUNKS * JdbcBatchWriter.CHUNK;
        // the server publishes a backend's counters a moment after its transaction ends
        Counters after = Poll.until("batch_row's counters to show the intake's " + rows + " rows", Duration.ofSeconds(30),
                this::counters, c -> c.inserted() >= rows);
        assertThat(after.seqScans() - scansBefore).as("sequential reads of batch_row during the intake (%s)", after).isZero();
        assertThat(after.indexScans()).as("look-ups through the indexes (%s)", after).isPositive();
        // the keys are all new: a look-up per key reads nothing; a whole index read per chunk reads every row written so far
        assertThat(after.rowsRead()).as("rows read by the look-ups (%s)", after).isLessThan(rows);
    }

    @Test
    void aPlansLookUpsRightAfterABigIntakeUseTheIndexesToo() throws SQLException {
        // a plan may come before any ANALYZE has seen the rows just taken in: the same estimate as above
        int rows = 5 * JdbcBatchWriter.CHUNK;
        List<String> refIds = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        try (BatchWriter writer = journal.intake().openBatch("taken.csv", ',', List.of(), "archive/taken.csv")) {
            for (int n = 0; n < rows; n++) {
                refIds.add("INV-" + n);
                keys.add("FF100|" + (100_000_000 + n) + "|");
                // every other row an order; the rest refused (no order, and their keys count for nothing)
                boolean order = n % 2 == 0;
                writer.add(new NewRow(n, n + 2, refIds.get(n), "FF100", String.valueOf(100_000_000 + n), null, 15_000L,
                        List.of(), order ? RowState.ACCEPTED : RowState.REJECTED, order ? 15_000L : null,
                        order ? null : "refused", keys.get(n)));
            }
            writer.commit();
        }
        Counters before = Poll.until("batch_row's counters to show the " + rows + " rows", Duration.ofSeconds(30),
                this::counters, c -> c.inserted() >= rows);
        List<String> asked = new ArrayList<>(refIds.subList(0, JdbcBatchWriter.CHUNK));
        asked.add("INV-never");
        assertThat(journal.intake().ordersAmong(asked)).hasSize(JdbcBatchWriter.CHUNK / 2).contains("INV-0")
                .doesNotContain("INV-1", "INV-never");
        assertThat(journal.intake().repeatsAmong(keys.subList(0, JdbcBatchWriter.CHUNK), 0))
                .hasSize(JdbcBatchWriter.CHUNK / 2).containsKey(keys.get(0)).doesNotContainKey(keys.get(1));
        // both found 500 rows, so both read at least that many once their counters are published
        Counters after = Poll.until("batch_row's counters to show both look-ups", Duration.ofSeconds(30), this::counters,
                c -> c.rowsRead() - before.rowsRead() >= JdbcBatchWriter.CHUNK
                        && c.seqScans() + c.indexScans() >= before.seqScans() + before.indexScans() + 2);
        // a look-up per key reads the rows it finds (and the refused rows' keys); a scan reads all 5,000 rows each time
        assertThat(after.rowsRead() - before.rowsRead()).as("rows read by the look-ups (%s, before %s)", after, before)
                .isLessThan(rows);
    }

    private record Counters(long seqScans, long indexScans, long rowsRead, long inserted) {
    }

    private Counters counters() {
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT seq_scan, COALESCE(idx_scan, 0), seq_tup_read + COALESCE(idx_tup_fetch, 0), n_tup_ins FROM pg_stat_user_tables"
                     + " WHERE relname = 'batch_row'")) {
            rs.next();
            return new Counters(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
