package org.topupbatch.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.Accounts;

/**
 * Writes a batch's report as the journal holds it now, with the balance read now, and records in
 * the journal that it was written (and whether every row was final then).
 */
public class BatchReportWriter {

    private static final Logger LOG = LoggerFactory.getLogger(BatchReportWriter.class);

    private final ReportingJournal journal;
    private final Accounts gateway;
    private final ReportWriter files;
    private final Clock clock;
    private final ReportWritten written;
    private org.topupbatch.journal.Outbox outbox;
    private ReportMessages messages;

    public BatchReportWriter(ReportingJournal journal, Accounts gateway, ReportWriter files, Clock clock) {
        this(journal, gateway, files, clock, ReportWritten.NOBODY);
    }

    public BatchReportWriter(ReportingJournal journal, Accounts gateway, ReportWriter files, Clock clock,
                             ReportWritten written) {
        this.journal = journal;
        this.gateway = gateway;
        this.files = files;
        this.clock = clock;
        this.written = written;
    }

    public void write(BatchRecord batch, boolean complete) {
        Instant now = clock.instant();
        Long balanceAfter = balanceNow(batch);
        ReportFiles report;
        try {
            report = files.write(batch, rows -> journal.forEachRow(batch.id(), rows), balanceAfter, now);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // told before the journal's record, so that whoever sees the report file finds it timed
        written.written(batch, complete, clock.instant(), report.summary());
        if (outbox == null) {
            journal.markReported(batch.id(), now, complete, balanceAfter);
        } else {
            // the record of the report and the messages it calls for: one transaction, so a crash
            // right after loses neither, and a crash before leaves both to the report written again
            outbox.markReported(batch.id(), now, complete, balanceAfter, messages.messagesFor(batch, complete, report.summary()));
        }
        if (complete) {
            LOG.info("Report written for {}", batch.fileName());
        }
    }

    /**
     * Records each report together with the outgoing messages it calls for (notices, the ERP's
     * callback) in the journal's outbox, in one transaction.
     */
    public BatchReportWriter recordingIn(org.topupbatch.journal.Outbox outbox, ReportMessages messages) {
        this.outbox = outbox;
        this.messages = messages;
        return this;
    }

    /** The balance read now; when the provider cannot be asked, the latest one the journal knows. */
    private Long balanceNow(BatchRecord batch) {
        try {
            return gateway.checkBalance().balance();
        } catch (ProviderException e) {
            Long known = journal.latestBalance().orElse(null);
            LOG.warn("Balance could not be read for the report of {} ({}); balance_after is the latest balance known: {}",
                    batch.fileName(), e.getMessage(), known == null ? "none" : known);
            return known;
        }
    }
}
