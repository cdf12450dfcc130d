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
public final class ReconcileRun implements DailyReconciliation {

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
    @Override
    public void daily() {
        ReconcileDay day = ReconcileDay.parse(null, zone, clock);
        try {
            run(day);
        } catch (IOException | RuntimeException e) {
            LOG.warn("The daily reconciliation of {} failed: {}; run 'java -jar topup-batch.jar reconcile {}' to try again",
                    day, e.getMessage() == null ? e.toString() : e.getMessage(), day);
        }
    }

    /**
     * The reports folder, made if need be, must take the files: the journal is corrected before they
     * are written, and a folder that cannot take them would leave the corrections listed nowhere.
     */
    static void writable(Path reportsDir) throws IOException {
        java.nio.file.Files.createDirectories(reportsDir);
        if (!java.nio.file.Files.isWritable(reportsDir)) {
            throw new IOException(reportsDir + " is not writable");
        }
    }

    /** The reports of the batches with an order the reconciliation corrected, written again (the earlier ones kept). */
    static void writeReportsAgain(Journal journal, ReportWriter reports, java.util.Set<Long> batches, Long balanceNow,
                                  ReconcileDay day, Clock clock) throws IOException {
        for (long batchId : batches) {
            BatchRecord batch = journal.batch(batchId).orElse(null);
            if (batch == null || batch.reportedAt() == null) {
                continue; // not reported yet: its report, when it comes, shows the correction
            }
            reports.writeAgainKeeping(batch, rows -> journal.forEachRow(batchId, rows),
                    batch.balanceAfter() != null ? batch.balanceAfter() : balanceNow, clock.instant(), "before-reconcile");
            LOG.warn("Reconcile {}: the report of batch {} ({}) is written again with what the provider's history"
                    + " changed; the earlier one is kept beside it", day, batchId, batch.fileName());
        }
    }

    /** The notice of a reconciliation with exceptions or an unexplained amount; {@code more} ends its text. */
    static org.topupbatch.notify.Notice notice(String day, Map<String, Long> exceptions, long exceptionCount, Long unexplained,
                                               Path csv, String more) {
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        fields.put("day", day);
        fields.put("exceptions", exceptions);
        fields.put("unexplained", unexplained);
        fields.put("file", csv.getFileName().toString());
        return new org.topupbatch.notify.Notice("reconcile_exceptions", "topup-batch: reconciliation of "
                + day + ": " + exceptionCount + " exceptions", "The reconciliation of " + day + " with the"
                + " provider lists " + exceptionCount + " exceptions " + exceptions + "; unexplained "
                + (unexplained == null ? "unknown" : org.topupbatch.text.Rupiah.format(unexplained))
                + ". See " + csv.getFileName() + "." + more, fields);
    }

    public Done run(ReconcileDay day) throws IOException {
        // the journal is corrected before the files are written: a reports folder that cannot take
        // them would leave the corrections listed nowhere
        writable(reportsDir);
        Reconciliation result = new Reconciler(gateway, journal.reconciliations(), journal, pendingTimeout, clock).reconcile(day);
        ReconcileFiles.Written files = new ReconcileFiles(reportsDir).write(result);
        writeReportsAgain(journal, reports, result.batchesChanged(), result.summary().balanceNow(), day, clock);
        ReconcileSummary s = result.summary();
        journal.reconciliations().recordReconciliation(new ReconcileJournal.Reconciliation(s.day(), s.zone(), s.ranAt(),
                s.providerOrders(), s.journalOrders(), s.matched(), s.exceptions(), s.exceptionCount(), s.unexplained(),
                files.summary().toString()));
        if (s.exceptionCount() > 0 || s.unexplained() != null && s.unexplained() != 0) {
            notices.accept(notice(s.day(), s.exceptions(), s.exceptionCount(), s.unexplained(), files.csv(), ""));
        }
        LOG.info("Reconciled {} ({}): {} orders at the provider, {} in the journal, {} matched, {} exceptions {}, unexplained {}",
                day, zone, s.providerOrders(), s.journalOrders(), s.matched(), s.exceptionCount(), s.exceptions(),
                s.unexplained() == null ? "unknown" : org.topupbatch.text.Rupiah.format(s.unexplained()));
        return new Done(result, files);
    }
}
