package org.topupbatch.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.OperatorAction;
import org.topupbatch.journal.RowState;
import org.topupbatch.testing.MutableClock;

/**
 * Issue 37, item 5: what an operator reads of a held batch is what happened, on a real H2 journal. Its
 * summary counts the rows sent as submitted and the rows never sent as queued (not as submitted nor
 * pending); {@code resume} says the queued rows will be sent; {@code hold} of a batch with nothing left
 * to send says there is nothing to hold and holds nothing.
 */
class OperatorWordsTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path dir;

    final MutableClock clock = new MutableClock(T0);
    JdbcJournal journal;

    @BeforeEach
    void open() {
        journal = JdbcJournal.open(dir, "", null, null, clock);
    }

    @AfterEach
    void close() {
        journal.close();
    }

    long batch(String file, int rows) {
        try (BatchWriter writer = journal.intake().openBatch(file, ',', List.of(), "archive/" + file)) {
            for (int i = 0; i < rows; i++) {
                writer.add(new NewRow(i, i + 2L, file + "-" + i, "ML86", "1234567" + i, "1234", null, List.of(),
                        RowState.ACCEPTED, 20_000L, null));
            }
            return writer.commit();
        }
    }

    void sent(String refId, RowState outcome) {
        long id = journal.tracking().findOrder(refId).orElseThrow().id();
        journal.submission().markSending(id, clock.instant());
        journal.submission().recordOutcome(id, outcome, null, 20_000L, outcome.name());
    }

    BatchRecord record(long id) {
        return journal.reporting().batch(id).orElseThrow();
    }

    @Test
    void a_held_batch_counts_its_sent_rows_as_submitted_and_its_unsent_rows_as_queued() throws Exception {
        long id = batch("held.csv", 6);
        sent("held.csv-0", RowState.SUCCESS);
        sent("held.csv-1", RowState.PENDING);
        OperatorAction.Outcome hold = OperatorAction.HOLD.apply(journal.control(), journal.reporting(), record(id), clock.instant());
        assertThat(hold.changed()).isTrue();
        assertThat(hold.message()).contains("is held: its 4 rows queued stay unsent");

        ReportFiles files = new ReportWriter(dir.resolve("reports")).write(record(id), rows -> journal.reporting().forEachRow(id, rows),
                1_000_000L, clock.instant());
        JsonNode summary = new ObjectMapper().readTree(files.summaryJson().toFile());
        assertThat(summary.get("rows").asLong()).isEqualTo(6);
        assertThat(summary.get("submitted").asLong()).as("rows sent to the provider").isEqualTo(2);
        assertThat(summary.get("success").asLong()).isEqualTo(1);
        assertThat(summary.get("pending").asLong()).as("only the order at the provider").isEqualTo(1);
        assertThat(summary.get("queued").asLong()).as("never sent").isEqualTo(4);
        assertThat(summary.get("rejected").asLong()).isZero();

        OperatorAction.Outcome resume = OperatorAction.RESUME.apply(journal.control(), journal.reporting(), record(id), clock.instant());
        assertThat(resume.message()).endsWith("goes on: its 4 rows queued will be sent.").doesNotContain("again");
        assertThat(OperatorAction.RESUME.apply(journal.control(), journal.reporting(), record(id), clock.instant()).message())
                .endsWith("is not held: nothing to resume.");
    }

    /** A batch whose only unsent row waits for the order it repeats has a row to hold: if that order fails, it is sent. */
    @Test
    void hold_of_a_batch_whose_row_waits_for_the_order_it_repeats_holds_it() {
        String key = "ML86\u001F12345670\u001F1234";
        try (BatchWriter writer = journal.intake().openBatch("first.csv", ',', List.of(), "archive/first.csv")) {
            writer.add(new NewRow(0, 2L, "A-1", "ML86", "12345670", "1234", null, List.of(), RowState.ACCEPTED, 20_000L,
                    null, key, null, null));
            writer.commit();
        }
        long id;
        try (BatchWriter writer = journal.intake().openBatch("again.csv", ',', List.of(), "archive/again.csv")) {
            writer.add(new NewRow(0, 2L, "B-1", "ML86", "12345670", "1234", null, List.of(), RowState.WAITING, 20_000L,
                    "waits for ref_id A-1", key, null, "A-1"));
            id = writer.commit();
        }
        OperatorAction.Outcome hold = OperatorAction.HOLD.apply(journal.control(), journal.reporting(), record(id), clock.instant());
        assertThat(hold.changed()).as(hold.message()).isTrue();
        assertThat(record(id).held()).isTrue();
        sent("A-1", RowState.FAILED);
        journal.repeatWaits().decide();
        long waiting = journal.tracking().findOrder("B-1").orElseThrow().id();
        assertThat(journal.submission().markSending(waiting, clock.instant())).as("held: not sent").isFalse();
    }

    @Test
    void hold_of_a_reported_batch_says_there_is_nothing_to_hold_and_holds_nothing() {
        long id = batch("done.csv", 2);
        sent("done.csv-0", RowState.SUCCESS);
        sent("done.csv-1", RowState.FAILED);
        journal.reporting().markReported(id, clock.instant(), true);

        OperatorAction.Outcome hold = OperatorAction.HOLD.apply(journal.control(), journal.reporting(), record(id), clock.instant());
        assertThat(hold.changed()).isFalse();
        assertThat(hold.message()).isEqualTo("Batch " + id + " (done.csv): nothing to hold: the batch is reported;"
                + " no row waits to be sent.");
        assertThat(record(id).held()).as("no hold recorded").isFalse();
    }
}
