package org.topupbatch.report;

import java.time.Instant;
import org.topupbatch.journal.BatchRecord;

/**
 * Told each time a batch's report has been written (the files are in place), with the time: the
 * metrics time a batch to this moment, not to the summary's {@code finished_at}, which is taken
 * before the balance is read (that read may wait a minute for the rate budget).
 */
@FunctionalInterface
public interface ReportWritten {

    ReportWritten NOBODY = (batch, complete, at, summary) -> { };

    /** {@code summary}: the figures the report's summary.json holds. */
    void written(BatchRecord batch, boolean complete, Instant at, ReportSummary summary);
}
