package org.topupbatch.track;

import java.time.Clock;
import java.util.List;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;

/**
 * What the tracking tests write to and read from their real journal: a batch of rows, a row by its
 * ref_id, and a row marked as sent with the outcome its answer gave.
 */
final class RowsInJournal {

    private final JdbcJournal journal;
    private final Clock clock;

    RowsInJournal(JdbcJournal journal, Clock clock) {
        this.journal = journal;
        this.clock = clock;
    }

    void batch(NewRow... rows) {
        try (BatchWriter writer = journal.intake().openBatch("t.csv", ',', List.of(), "archive/t.csv")) {
            for (NewRow row : rows) {
                writer.add(row);
            }
            writer.commit();
        }
    }

    RowRecord row(String refId) {
        return journal.tracking().findOrder(refId).orElseThrow();
    }

    /** The row sent at the clock's time, its answer's outcome recorded (no provider id, no price). */
    void sentWith(String refId, RowState outcome) {
        journal.submission().markSending(row(refId).id(), clock.instant());
        journal.submission().recordOutcome(row(refId).id(), outcome, null, null, outcome.name());
    }
}
