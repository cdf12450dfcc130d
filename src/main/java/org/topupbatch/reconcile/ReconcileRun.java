package org.topupbatch.reconcile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.report.ReportWriter;

/**
 * One reconciliation from start to end, as the {@code reconcile} command and the daily route run it:
 * reconcile the day, write its two files, write again the reports of the batches whose orders
 * changed (keeping the earlier ones), and record the run in the journal for status, dashboard and
 * metrics.
 */
public final class ReconcileRun {

    private static final Logger LOG = LoggerFactory.getLogger(ReconcileRun.class);

    /** What was reconciled and where it was written. */
    public record Done(Reconciliation result, ReconcileFiles.Written files) {
    }

    private final ProviderGateway gateway;
    private final Journal journal;
    private final ReportWriter reports;
    private final Path reportsDir;
    private final ZoneId zone;
    private final Duration pendingTimeout;
    private final Clock clock;
    private java.util.function.Consumer<org.topupbatch.notify.Notice> notices = notice -> { };

    public ReconcileRun(ProviderGateway gateway, Journal journal, ReportWriter reports, Path reportsDir, ZoneId zone,
                        Duration pendingTimeout, Clock clock) {
        this.gateway = gateway;
        this.journal = journal;
        this.reports = reports;
        this.reportsDir = reportsDir;
        this.zone = zone;
        this.pendingTimeout = pendingTimeout;
        this.clock = clock;
    }

    /** Who is told of a reconciliation with exceptions (the service's notifications). */
    public ReconcileRun withNotices(java.util.function.Consumer<org.topupbatch.notify.Notice> notices) {
        this.notices = notices;
        return this;
    }

    /**
     * The route's run: yesterday, and a failure told in one line rather than thrown (the next day's
     * run, or {@code reconcile DAY} by hand, tries again; nothing was changed by a run that failed
     * before its files were written).
     */
    public void daily() {
        ReconcileDay day = ReconcileDay.parse(null, zone, clock);
        try {
            run(day);
        } catch (IOException | RuntimeException e) {
            LOG.warn("The daily reconciliation of {} failed: {}; run 'java -jar topup-batch.jar reconcile {}' to try again",
                    day, e.getMessage() == null ? e.toString() : e.getMessage(), day);
        }
    }

    public Done run(ReconcileDay day) throws IOException {
        // the journal is corrected before the files are written: a reports folder that cannot take
        // them would leave the corrections listed nowhere
        java.nio.file.Files.createDirectories(reportsDir);
        if (!java.nio.file.Files.isWritable(reportsDir)) {
            throw new IOException(reportsDir + " is not writable");
        }
        Reconciliation result = new Reconciler(gateway, journal.reconciliations(), journal, pendingTimeout, clock).reconcile(day);
        ReconcileFiles.Written files = new ReconcileFiles(reportsDir).write(result);
        for (long batchId : result.batchesChanged()) {
            BatchRecord batch = journal.batch(batchId).orElse(null);
            if (batch == null || batch.reportedAt() == null) {
                continue; // not reported yet: its report, when it comes, shows the correction
            }
            reports.writeAgainKeeping(batch, rows -> journal.forEachRow(batchId, rows),
                    batch.balanceAfter() != null ? batch.balanceAfter() : result.summary().balanceNow(), clock.instant(),
                    "before-reconcile");
            LOG.warn("Reconcile {}: the report of batch {} ({}) is written again with what the provider's history"
                    + " changed; the earlier one is kept beside it", day, batchId, batch.fileName());
        }
        ReconcileSummary s = result.summary();
        journal.reconciliations().recordReconciliation(new ReconcileJournal.Reconciliation(s.day(), s.zone(), s.ranAt(),
                s.providerOrders(), s.journalOrders(), s.matched(), s.exceptions(), s.exceptionCount(), s.unexplained(),
                files.summary().toString()));
        if (s.exceptionCount() > 0 || s.unexplained() != null && s.unexplained() != 0) {
            Map<String, Object> fields = new java.util.LinkedHashMap<>();
            fields.put("day", s.day());
            fields.put("exceptions", s.exceptions());
            fields.put("unexplained", s.unexplained());
            fields.put("file", files.csv().getFileName().toString());
            notices.accept(new org.topupbatch.notify.Notice("reconcile_exceptions", "topup-batch: reconciliation of "
                    + s.day() + ": " + s.exceptionCount() + " exceptions", "The reconciliation of " + s.day() + " with the"
                    + " provider lists " + s.exceptionCount() + " exceptions " + s.exceptions() + "; unexplained "
                    + (s.unexplained() == null ? "unknown" : org.topupbatch.text.Rupiah.format(s.unexplained()))
                    + ". See " + files.csv().getFileName() + ".", fields));
        }
        LOG.info("Reconciled {} ({}): {} orders at the provider, {} in the journal, {} matched, {} exceptions {}, unexplained {}",
                day, zone, s.providerOrders(), s.journalOrders(), s.matched(), s.exceptionCount(), s.exceptions(),
                s.unexplained() == null ? "unknown" : org.topupbatch.text.Rupiah.format(s.unexplained()));
        return new Done(result, files);
    }
}
