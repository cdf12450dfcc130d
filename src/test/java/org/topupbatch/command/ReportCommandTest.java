package org.topupbatch.command;

import org.topupbatch.settings.SettingsLookup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/**
 * {@code report BATCH} against a real H2 journal written as a run writes it (and closed, as the
 * embedded H2 journal admits one process at a time). No provider exists in this test: the command
 * must not need one.
 */
class ReportCommandTest {

    static final Instant REPORTED = Instant.parse("2026-03-02T08:00:00Z");

    @TempDir
    Path dir;

    long first;
    long second;
    long other;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void journalWithThreeBatches() {
        try (JdbcJournal journal = JdbcJournal.open(dir.resolve("data"), null, null, null,
                Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC))) {
            first = batch(journal, "daily.csv", "D-1", 500_000L);
            second = batch(journal, "daily.csv", "D-2", 480_000L);
            other = batch(journal, "weekly.csv", "W-1", 460_000L);
            journal.reporting().markReported(first, REPORTED, true, 480_000L);
            journal.reporting().markReported(second, REPORTED.plusSeconds(60), true, 460_000L);
        }
    }

    static long batch(JdbcJournal journal, String file, String refId, long balance) {
        try (BatchWriter writer = journal.intake().openBatch(file, ',', org.topupbatch.journal.BatchEncoding.UTF_8, List.of(), "archive/" + file, balance, "api.example.id")) {
            writer.add(new NewRow(0, 2, refId, "ML86", "123456", "1234", null, List.of(), RowState.ACCEPTED, 20_000L, null));
            long id = writer.commit();
            long rowId = journal.tracking().findOrder(refId).orElseThrow().id();
            journal.submission().markSending(rowId, Instant.parse("2026-03-01T10:00:01Z"));
            journal.submission().recordOutcome(rowId, RowState.SUCCESS, "SN-" + refId, 20_000L, "ok");
            return id;
        }
    }

    int report(String... args) throws Exception {
        Properties file = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
            file.load(in);
        }
        Map<String, String> env = Map.of("TOPUP_DATA", dir.resolve("data").toString(),
                "TOPUP_REPORTS", dir.resolve("reports").toString(), "TOPUP_INBOX", dir.resolve("inbox").toString());
        return new ReportCommand(new CommandContext(new SettingsLookup(file, env, new Properties()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.systemUTC())).run(List.of(args));
    }

    JsonNode summary(String name) throws Exception {
        return new ObjectMapper().readTree(dir.resolve("reports").resolve(name).toFile());
    }

    List<String> reports() throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve("reports"))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void a_batch_id_writes_that_batch_report_from_the_journal_alone() throws Exception {
        assertThat(report(Long.toString(second))).isZero();

        JsonNode s = summary("daily.summary.json");
        assertThat(s.path("batch").asLong()).isEqualTo(second);
        assertThat(s.path("success").asInt()).isEqualTo(1);
        assertThat(s.path("balance_before").asLong()).isEqualTo(480_000L);
        assertThat(s.path("balance_after").asLong()).isEqualTo(460_000L);
        assertThat(s.path("finished_at").asText()).isEqualTo("2026-03-02T08:01:00Z");
        assertThat(s.path("provider").asText()).isEqualTo("api.example.id");
        assertThat(Files.readString(dir.resolve("reports").resolve("daily.result.csv"))).contains("D-2", "SN-D-2");
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Report of batch " + second + " (daily.csv) written: ");

        // the earlier batch of that name, written again, does not take the later one's place
        assertThat(report(Long.toString(first))).isZero();
        assertThat(reports()).containsExactly(
                "daily.batch-" + first + "-20260301-100000.result.csv", "daily.batch-" + first + "-20260301-100000.summary.json",
                "daily.result.csv", "daily.summary.json");
        assertThat(summary("daily.summary.json").path("batch").asLong()).isEqualTo(second);
    }

    @Test
    void a_file_name_naming_one_batch_writes_it_with_or_without_csv() throws Exception {
        assertThat(report("weekly")).isZero();
        assertThat(summary("weekly.summary.json").path("batch").asLong()).isEqualTo(other);
        assertThat(report("weekly.csv")).isZero();
    }

    @Test
    void a_name_of_several_batches_lists_them() throws Exception {
        assertThat(report("daily.csv")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).hasLineCount(1)
                .contains("'daily.csv' names 2 batches", first + " (started ", second + " (started ");
        assertThat(dir.resolve("reports")).doesNotExist();
    }

    @Test
    void an_unknown_batch_is_one_line_and_exit_1() throws Exception {
        assertThat(report("nightly.csv")).isEqualTo(1);
        assertThat(report("9999")).isEqualTo(1);
        assertThat(report()).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "topup-batch: no batch 'nightly.csv' in the journal; give a batch id (first column of 'status', \"batch\" in summary.json) or the name of a file that was taken",
                "topup-batch: no batch '9999' in the journal; give a batch id (first column of 'status', \"batch\" in summary.json) or the name of a file that was taken",
                "topup-batch: usage: java -jar topup-batch.jar report BATCH (a batch id, or an input file name)");
        assertThat(out.size()).isZero();
    }
}
