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
        journal.markReported(batch.id(), now, complete, balanceAfter);
        if (complete) {
            LOG.info("Report written for {}", batch.fileName());
        }
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
