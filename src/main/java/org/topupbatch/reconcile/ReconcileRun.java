package org.topupbatch.reconcile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.journal.RowOutcomes;
import org.topupbatch.notify.Notice;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.settings.ProviderAccount;
import org.topupbatch.track.OrderRequests;

/**
 * One reconciliation of a day from start to end, as the {@code reconcile} command and the daily route
 * run it, for the list of accounts (docs/reconcile.md#reconcile-with-the-provider): each account through its own
 * gateway (so within its own rate budget), by its order history, or by status checks of the journal's
 * orders where the dialect has no history (Digiflazz); then the day's two files, the reports of the
 * batches whose orders changed written again (the earlier ones kept), and the run recorded in the
 * journal for status, dashboard and metrics.
 *
 * <p>The one account of topup.base-url is a list of one with no name, and keeps what it always had
 * (one decision, {@link AccountsSummary#lone()}): its files have no account column or part, and an
 * account that cannot be asked fails the run (nothing written). Of several named accounts, one that
 * cannot be asked is said to be so and the others are reconciled all the same.
 */
public final class ReconcileRun implements DailyReconciliation {

    private static final Logger LOG = LoggerFactory.getLogger(ReconcileRun.class);

    /** An account to reconcile: its name (null for topup.base-url's), dialect and gateway (made when its turn comes; it may fail to be). */
    public record Account(String name, String dialect, Supplier<ProviderGateway> gateway) {
    }

    /** What was reconciled and where it was written. */
    public record Done(AccountsSummary summary, ReconcileFiles.Written files) {
    }

    private final List<Account> accounts;
    private final ReconcileJournal reconciliations;
    /** Where a correction is recorded on the order's row. */
    private final RowOutcomes outcomes;
    /** The reports written again after a correction are read from here. */
    private final ReportingJournal reporting;
    private final ReportWriter reports;
    private final Path reportsDir;
    private final ZoneId zone;
    private final Duration pendingTimeout;
    private final OrderRequests requests;
    private final Clock clock;
    /** The outbox messages a notice makes (one per endpoint); none by default (the command tells nobody). */
    private Function<Notice, List<org.topupbatch.journal.Outbox.OutgoingMessage>> notices = notice -> List.of();

    public ReconcileRun(List<Account> accounts, ReconcileJournal reconciliations, RowOutcomes outcomes,
                        ReportingJournal reporting, ReportWriter reports, Path reportsDir, ZoneId zone,
                        Duration pendingTimeout, OrderRequests requests, Clock clock) {
        this.accounts = List.copyOf(accounts);
        this.reconciliations = reconciliations;
        this.outcomes = outcomes;
        this.reporting = reporting;
        this.reports = reports;
        this.reportsDir = reportsDir;
        this.zone = zone;
        this.pendingTimeout = pendingTimeout;
        this.requests = requests;
        this.clock = clock;
    }

    /**
     * The accounts the settings name ({@link org.topupbatch.settings.AccountList}): those of topup.providers
     * in their order, or topup.base-url's as a list of one with no name; {@code gateway} makes an account's gateway.
     */
    public static List<Account> accounts(List<ProviderAccount> accounts, Function<ProviderAccount, ProviderGateway> gateway) {
        return accounts.stream()
                .map(a -> new Account(a.name(), a.dialect(), () -> gateway.apply(a))).toList();
    }

    /**
     * Who is told of a reconciliation with exceptions or with an account not reconciled (the service's
     * notifications): the notice's outbox messages, recorded with the run in one transaction.
     */
    public ReconcileRun withNotices(Function<Notice, List<org.topupbatch.journal.Outbox.OutgoingMessage>> notices) {
        this.notices = notices;
        return this;
    }

    /**
     * The route's run: yesterday, and a failure told in one line rather than thrown (the next day's
     * run, or {@code reconcile DAY} by hand, tries again).
     */
    @Override
    public void daily() {
        ReconcileDay day = ReconcileDay.parse(null, zone, clock);
        try {
            Done done = run(day);
            if (!done.summary().complete()) {
                LOG.warn("The daily reconciliation of {} is incomplete: {}; run 'java -jar topup-batch.jar reconcile {}' to"
                        + " try again", day, failures(done.summary()), day);
            }
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
    static void writeReportsAgain(ReportingJournal reporting, ReportWriter reports, java.util.Set<Long> batches, Long balanceNow,
                                  ReconcileDay day, Clock clock) throws IOException {
        for (long batchId : batches) {
            BatchRecord batch = reporting.batch(batchId).orElse(null);
            if (batch == null || batch.reportedAt() == null) {
                continue; // not reported yet: its report, when it comes, shows the correction
            }
            reports.writeAgainKeeping(batch, rows -> reporting.forEachRow(batchId, rows),
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
        java.time.Instant ranAt = clock.instant();
        List<AccountReconciliation> each = new ArrayList<>();
        for (Account account : accounts) {
            each.add(reconcile(account, day));
        }
        AccountsSummary summary = new AccountsSummary(day.toString(), zone.getId(), each, ranAt);
        ReconcileFiles.Written files = new ReconcileFiles(reportsDir).write(summary);
        Set<Long> batchesChanged = new LinkedHashSet<>();
        summary.reconciled().forEach(a -> batchesChanged.addAll(a.result().batchesChanged()));
        // one account's balance now is the balance a report shows; several accounts' have each their own
        writeReportsAgain(reporting, reports, batchesChanged, summary.lone() ? each.get(0).result().summary().balanceNow() : null,
                day, clock);
        Long unexplainedKnown = summary.reconciled().stream().map(a -> a.result().summary().unexplained())
                .filter(java.util.Objects::nonNull).reduce(0L, Long::sum);
        List<org.topupbatch.journal.Outbox.OutgoingMessage> told = List.of();
        if (summary.exceptionCount() > 0 || unexplainedKnown != 0 || !summary.complete()) {
            told = notices.apply(notice(summary.day(), summary.exceptions(), summary.exceptionCount(),
                    summary.unexplained(), files.csv(), summary.complete() ? "" : " Not reconciled: " + failures(summary) + "."));
        }
        // the run and its notice in one transaction: a crash cannot record one without the other
        reconciliations.recordReconciliation(summary.record(files.summary().toString()), told);
        for (AccountReconciliation a : each) {
            LOG.info("Reconciled {} ({}){}: {}", day, zone, a.account() == null ? "" : " at account " + a.account(), a.line());
        }
        return new Done(summary, files);
    }

    /**
     * One account's part. Of several accounts, a provider that cannot be asked (a connection refused,
     * credentials refused) leaves the account not reconciled; a journal that fails fails the whole run,
     * and so does any failure of the one account of topup.base-url.
     */
    private AccountReconciliation reconcile(Account account, ReconcileDay day) {
        if (account.name() == null) {
            return byHistory(account, account.gateway().get(), day);
        }
        try {
            ProviderGateway gateway = account.gateway().get();
            if (gateway.statusByResending()) {
                StatusCheckReconciler.Checked checked = new StatusCheckReconciler(gateway, reconciliations,
                        outcomes, pendingTimeout, requests, clock, account.name()).reconcile(day);
                return new AccountReconciliation(account.name(), account.dialect(), AccountReconciliation.Method.STATUS_CHECK,
                        checked.result(), checked.notLookedUp(), null);
            }
            return byHistory(account, gateway, day);
        } catch (JournalException e) {
            throw e;
        } catch (ProviderException e) {
            String why = e.stopsSubmission() ? "it refused the credentials (" + e.code() + ")" : "it could not be asked: "
                    + e.getMessage();
            LOG.warn("Reconcile {}: account {} is not reconciled: {}", day, account.name(), why);
            return AccountReconciliation.failed(account.name(), account.dialect(), why);
        } catch (RuntimeException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            LOG.warn("Reconcile {}: account {} is not reconciled: {}", day, account.name(), why);
            return AccountReconciliation.failed(account.name(), account.dialect(), why);
        }
    }

    private AccountReconciliation byHistory(Account account, ProviderGateway gateway, ReconcileDay day) {
        Reconciliation result = new Reconciler(gateway, reconciliations, outcomes, pendingTimeout, clock)
                .atAccount(account.name()).reconcile(day);
        return new AccountReconciliation(account.name(), account.dialect(), AccountReconciliation.Method.HISTORY, result, 0, null);
    }

    static String failures(AccountsSummary summary) {
        return String.join("; ", summary.accounts().stream().filter(a -> !a.reconciled())
                .map(a -> a.account() + ": " + a.failure()).toList());
    }
}
