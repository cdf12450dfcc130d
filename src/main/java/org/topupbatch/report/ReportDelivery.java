package org.topupbatch.report;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Takes finished reports from the folder {@link ReportWriter} writes into to where readers look
 * for them. Locally that is the same folder; for an SFTP reports folder every report written so far
 * is uploaded (docs/erp-doors.md#inbox-and-reports-on-an-sftp-server). A report counts as written only
 * once it is delivered: a failure is retried by the report backstop.
 */
public interface ReportDelivery {

    ReportDelivery LOCAL = folder -> { };

    /** Delivers every report in {@code folder} not delivered yet, oldest first. */
    void deliver(Path folder) throws IOException;
}
