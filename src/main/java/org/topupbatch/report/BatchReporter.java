package org.topupbatch.report;

import java.time.Clock;
import java.time.Duration;
import org.apache.camel.Body;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.provider.Accounts;

/**
 * What the report routes call: for a batch whose rows became final (the events aggregated per
 * batch), and for every unreported batch now and then (the backstop), asks {@link ReportSchedule}
 * whether the report is due and has {@link BatchReportWriter} write it. One report at a time, so
 * an event and the backstop never write the same files at once.
 */
public class BatchReporter {

    private static final Logger LOG = LoggerFactory.getLogger(BatchReporter.class);

    private final ReportingJournal journal;
    private final ReportSchedule schedule;
    private final BatchReportWriter writer;

    public BatchReporter(ReportingJournal journal, ReportSchedule schedule, BatchReportWriter writer) {
        this.journal = journal;
        this.schedule = schedule;
        this.writer = writer;
    }

    public BatchReporter(ReportingJournal journal, Accounts gateway, ReportWriter files, Clock clock,
                         Duration pendingTimeout) {
        this(journal, gateway, files, clock, pendingTimeout, ReportWritten.NOBODY);
    }

    /** {@code written} hears of each report once it is written and recorded (the metrics time batches there). */
    public BatchReporter(ReportingJournal journal, Accounts gateway, ReportWriter files, Clock clock,
                         Duration pendingTimeout, ReportWritten written) {
        this(journal, new ReportSchedule(journal, clock, pendingTimeout),
                new BatchReportWriter(journal, gateway, files, clock, written));
    }

    /** Writes the report of this batch if it is due (the report route, on the batch's row-final events). */
    public void reportIfDue(@Body long batchId) {
        journal.batch(batchId).ifPresent(this::reportIfDue);
    }

    /** Writes every report that is due now (the report backstop, on a slow timer). */
    public void reportDue() {
        schedule.unreported().forEach(this::reportIfDue);
    }

    public ReportSchedule.Outstanding outstanding() {
        return schedule.outstanding();
    }

    private synchronized void reportIfDue(BatchRecord stale) {
        try {
            // read again inside the lock: the other caller may have just written it
            BatchRecord batch = journal.batch(stale.id()).orElse(stale);
            schedule.due(batch).ifPresent(due -> {
                writer.write(batch, due.complete());
                schedule.written(batch, due);
            });
        } catch (RuntimeException e) {
            LOG.error("Could not write the report of {}: {}", stale.fileName(), e.getMessage());
        }
    }
}
