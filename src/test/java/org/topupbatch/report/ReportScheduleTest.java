package org.topupbatch.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;
import org.topupbatch.testing.MutableClock;

/** When a batch's report is due, on a real H2 journal and a clock the test moves by hand. */
class ReportScheduleTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(30);

    @TempDir
    Path dir;

    final MutableClock clock = new MutableClock(T0);
    JdbcJournal journal;
    ReportSchedule schedule;

    @BeforeEach
    void open() {
        journal = JdbcJournal.open(dir, "", null, null, clock);
        schedule = new ReportSchedule(journal.reporting(), clock, TIMEOUT);
    }

    @AfterEach
    void close() {
        journal.close();
    }

    long batch(String... refIds) {
        try (BatchWriter writer = journal.intake().openBatch("b.csv", ',', List.of(), "archive/b.csv")) {
            int seq = 0;
            for (String refId : refIds) {
                writer.add(new NewRow(seq, seq + 2L, refId, "ML86", "12345678", "1234", null, List.of(),
                        RowState.ACCEPTED, 20_000L, null));
                seq++;
            }
            return writer.commit();
        }
    }

    long row(String refId) {
        return journal.tracking().findOrder(refId).orElseThrow().id();
    }

    void sent(String refId, RowState outcome) {
        journal.submission().markSending(row(refId), clock.instant());
        journal.submission().recordOutcome(row(refId), outcome, null, 20_000L, outcome.name());
    }

    Optional<ReportSchedule.Due> due(long batchId) {
        return schedule.due(journal.reporting().batch(batchId).orElseThrow());
    }

    void written(long batchId, ReportSchedule.Due due) {
        journal.reporting().markReported(batchId, clock.instant(), due.complete());
        schedule.written(journal.reporting().batch(batchId).orElseThrow(), due);
    }

    @Test
    void a_batch_is_due_complete_once_every_row_is_final_and_not_while_any_is_still_queued_or_on_the_wire() {
        long id = batch("R-1", "R-2");
        sent("R-1", RowState.SUCCESS);
        assertThat(due(id)).as("R-2 still ACCEPTED").isEmpty();
        journal.submission().markSending(row("R-2"), clock.instant());
        assertThat(due(id)).as("R-2 on the wire").isEmpty();
        journal.submission().recordOutcome(row("R-2"), RowState.FAILED, null, null, "failed");

        ReportSchedule.Due due = due(id).orElseThrow();
        assertThat(due.complete()).isTrue();
        assertThat(due.progress().count(RowState.SUCCESS)).isEqualTo(1);
        written(id, due);
        assertThat(due(id)).as("written complete: never again").isEmpty();
        assertThat(schedule.outstanding()).isEqualTo(ReportSchedule.Outstanding.NONE);
    }

    @Test
    void a_halted_batch_is_due_with_its_unsent_rows_and_an_unreadable_file_at_once() {
        long id = batch("H-1", "H-2");
        sent("H-1", RowState.SUCCESS);
        journal.submission().haltBatch(id, "INSUFFICIENT_BALANCE");
        assertThat(due(id)).hasValueSatisfying(d -> assertThat(d.complete()).isTrue());

        long unreadable = journal.intake().recordUnreadableBatch("junk.csv", "not a CSV file", "archive/junk.csv");
        assertThat(due(unreadable)).hasValueSatisfying(d -> assertThat(d.complete()).isTrue());
    }

    @Test
    void pending_orders_make_it_due_at_the_timeout_from_the_last_submission_then_again_only_when_one_settles() {
        long id = batch("P-1", "P-2", "P-3");
        sent("P-1", RowState.PENDING);
        clock.advance(Duration.ofMinutes(10));
        sent("P-2", RowState.PENDING);
        sent("P-3", RowState.SUCCESS);

        clock.set(T0.plus(TIMEOUT).plusSeconds(1));
        assertThat(due(id)).as("30 min after the first order, but not after the last").isEmpty();
        assertThat(schedule.outstanding()).isEqualTo(ReportSchedule.Outstanding.WAITING);

        clock.set(T0.plus(Duration.ofMinutes(10)).plus(TIMEOUT));
        ReportSchedule.Due atTimeout = due(id).orElseThrow();
        assertThat(atTimeout.complete()).isFalse();
        assertThat(atTimeout.progress().count(RowState.PENDING)).isEqualTo(2);
        written(id, atTimeout);
        assertThat(schedule.outstanding()).isEqualTo(ReportSchedule.Outstanding.ONLY_TIMED_OUT);

        clock.advance(Duration.ofMinutes(5));
        assertThat(due(id)).as("nothing settled since: the same report").isEmpty();

        journal.submission().recordOutcome(row("P-1"), RowState.SUCCESS, "SN-1", 20_000L, "ok");
        ReportSchedule.Due rewritten = due(id).orElseThrow();
        assertThat(rewritten.complete()).isFalse();
        assertThat(rewritten.progress().count(RowState.PENDING)).isEqualTo(1);
        written(id, rewritten);

        journal.submission().recordOutcome(row("P-2"), RowState.FAILED, null, null, "failed");
        assertThat(due(id)).hasValueSatisfying(d -> assertThat(d.complete()).isTrue());
    }

    @Test
    void a_batch_held_before_the_run_began_is_left_as_it_stands_at_once() {
        long id = batch("E-1", "E-2");
        sent("E-1", RowState.SUCCESS);
        journal.control().holdBatch(id, clock.instant().minusSeconds(1)); // held before this run's schedule began
        written(id, due(id).orElseThrow());
        assertThat(schedule.outstanding()).as("held for a later run: a once run ends on it (exit 3)")
                .isEqualTo(ReportSchedule.Outstanding.ONLY_TIMED_OUT);
    }

    @Test
    void the_backstop_looks_every_30_s_or_every_pending_timeout_when_shorter() {
        assertThat(ReportSchedule.backstopPeriod(Duration.ofMinutes(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(ReportSchedule.backstopPeriod(Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(5));
        assertThat(ReportSchedule.backstopPeriod(Duration.ofMillis(10))).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void a_held_batch_is_reported_as_it_stands_waited_for_a_pending_timeout_from_the_hold_and_a_resumed_one_is_waited_for_again() {
        long id = batch("H-1", "H-2");
        sent("H-1", RowState.SUCCESS);
        assertThat(due(id)).isEmpty();
        journal.control().holdBatch(id, clock.instant());
        ReportSchedule.Due held = due(id).orElseThrow();
        assertThat(held.complete()).isFalse();
        written(id, held);
        assertThat(due(id)).as("nothing changed since").isEmpty();
        assertThat(schedule.outstanding()).as("held just now: a once run waits for a resume, as for pending orders")
                .isEqualTo(ReportSchedule.Outstanding.WAITING);
        clock.advance(TIMEOUT.minusSeconds(1));
        assertThat(schedule.outstanding()).as("within the pending timeout of the hold").isEqualTo(ReportSchedule.Outstanding.WAITING);
        clock.advance(Duration.ofSeconds(1));
        assertThat(schedule.outstanding()).as("held for the pending timeout: a once run may end on it")
                .isEqualTo(ReportSchedule.Outstanding.ONLY_TIMED_OUT);
        journal.control().resumeBatch(id);
        journal.submission().markSending(row("H-2"), clock.instant());
        journal.submission().recordOutcome(row("H-2"), RowState.PENDING, null, 20_000L, "pending");
        assertThat(schedule.outstanding()).as("resumed and pending: the run waits for it").isEqualTo(ReportSchedule.Outstanding.WAITING);
        journal.submission().recordOutcome(row("H-2"), RowState.SUCCESS, "SN", 20_000L, "ok");
        assertThat(due(id)).hasValueSatisfying(d -> assertThat(d.complete()).isTrue());
    }

    @Test
    void a_row_waiting_for_the_order_it_repeats_is_open_like_a_pending_order_until_the_timeout_then_reported_pending() {
        long first = batch("R-1");
        long second;
        try (BatchWriter writer = journal.intake().openBatch("again.csv", ',', List.of(), "archive/again.csv")) {
            writer.add(new NewRow(0, 2L, "R-2", "ML86", "12345678", "1234", null, List.of(), RowState.WAITING, 20_000L,
                    "waits for ref_id R-1 of batch " + first + " (b.csv): ...", "ML86|12345678|1234", null, "R-1"));
            second = writer.commit();
        }
        journal.submission().markSending(row("R-1"), clock.instant());
        journal.submission().recordOutcome(row("R-1"), RowState.PENDING, null, 20_000L, null);
        assertThat(due(second)).as("not a queued row: no sending to wait for, only its outcome").isEmpty();
        clock.advance(TIMEOUT);
        ReportSchedule.Due due = due(second).orElseThrow();
        assertThat(due.complete()).isFalse();
        written(second, due);
        java.util.List<org.topupbatch.journal.RowRecord> rows = new java.util.ArrayList<>();
        journal.reporting().forEachRow(second, rows::add);
        ReportedRow reported = ReportedRow.of(rows.get(0), null);
        assertThat(reported.status()).isEqualTo(ReportedRow.PENDING);
        assertThat(reported.message()).startsWith("waits for ref_id R-1");
        assertThat(ReportedRow.of(rows.get(0), "INVALID_SIGNATURE").status()).as("its batch halted: never sent")
                .isEqualTo(ReportedRow.REJECTED);
    }
}
