package org.topupbatch.reconcile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.notify.Notice;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.track.OrderRequests;

/**
 * Several accounts (README "Several accounts"): one reconciliation of a day, each account of
 * topup.providers on its own through its own gateway (so within its own rate budget): by its order
 * history, or by status checks of the journal's orders where the dialect has no history (Digiflazz).
 * An account that cannot be asked is said to be so and the others are reconciled all the same; the
 * files hold every account ({@link ReconcileFiles#write(AccountsSummary)}), the journal records the
 * run with each account's part, and the batches whose orders changed have their reports written again.
 */
public final class AccountsReconcileRun implements DailyReconciliation {

    private static final Logger LOG = LoggerFactory.getLogger(AccountsReconcileRun.class);

    /** An account to reconcile: its name, dialect and gateway (made when its turn comes; it may fail to be). */
    public record Account(String name, String dialect, Supplier<ProviderGateway> gateway) {
    }

    /** What was reconciled and where it was written. */
    public record Done(AccountsSummary summary, ReconcileFiles.Written files) {
    }

    private final List<Account> accounts;
    private final Journal journal;
    private final ReportWriter reports;
    private final Path reportsDir;
    private final ZoneId zone;
    private final Duration pendingTimeout;
    private final OrderRequests requests;
    private final Clock clock;
    private Consumer<Notice> notices = notice -> { };

    public AccountsReconcileRun(List<Account> accounts, Journal journal, ReportWriter reports, Path reportsDir, ZoneId zone,
                                Duration pendingTimeout, OrderRequests requests, Clock clock) {
        this.accounts = List.copyOf(accounts);
        this.journal = journal;
        this.reports = reports;
        this.reportsDir = reportsDir;
        this.zone = zone;
        this.pendingTimeout = pendingTimeout;
        this.requests = requests;
        this.clock = clock;
    }

    /** Who is told of a reconciliation with exceptions or with an account not reconciled (the service's notifications). */
    public AccountsReconcileRun withNotices(Consumer<Notice> notices) {
        this.notices = notices;
        return this;
    }

    /** The route's run: yesterday, a failure told in one line (as {@link ReconcileRun#daily()}). */
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

    public Done run(ReconcileDay day) throws IOException {
        ReconcileRun.writable(reportsDir);
        java.time.Instant ranAt = clock.instant();
        List<AccountReconciliation> each = new ArrayList<>();
        for (Account account : accounts) {
            each.add(reconcile(account, day));
        }
        AccountsSummary summary = new AccountsSummary(day.toString(), zone.getId(), each, ranAt);
        ReconcileFiles.Written files = new ReconcileFiles(reportsDir).write(summary);
        Set<Long> batchesChanged = new LinkedHashSet<>();
        summary.reconciled().forEach(a -> batchesChanged.addAll(a.result().batchesChanged()));
        ReconcileRun.writeReportsAgain(journal, reports, batchesChanged, null, day, clock);
        journal.reconciliations().recordReconciliation(new ReconcileJournal.Reconciliation(summary.day(), summary.zone(),
                ranAt, summary.providerOrders(), summary.journalOrders(), summary.matched(), summary.exceptions(),
                summary.exceptionCount(), summary.unexplained(), files.summary().toString(), summary.lines()));
        Long unexplainedKnown = summary.reconciled().stream().map(a -> a.result().summary().unexplained())
                .filter(java.util.Objects::nonNull).reduce(0L, Long::sum);
        if (summary.exceptionCount() > 0 || unexplainedKnown != 0 || !summary.complete()) {
            notices.accept(ReconcileRun.notice(summary.day(), summary.exceptions(), summary.exceptionCount(),
                    summary.unexplained(), files.csv(), summary.complete() ? "" : " Not reconciled: " + failures(summary) + "."));
        }
        for (AccountReconciliation a : each) {
            LOG.info("Reconciled {} ({}) at account {}: {}", day, zone, a.account(), a.line());
        }
        return new Done(summary, files);
    }

    /**
     * One account's part. A provider that cannot be asked (a connection refused, credentials refused)
     * leaves the account not reconciled; a journal that fails fails the whole run, as with one account.
     */
    private AccountReconciliation reconcile(Account account, ReconcileDay day) {
        try {
            ProviderGateway gateway = account.gateway().get();
            if (gateway.statusByResending()) {
                StatusCheckReconciler.Checked checked = new StatusCheckReconciler(gateway, journal.reconciliations(),
                        journal, pendingTimeout, requests, clock, account.name()).reconcile(day);
                return new AccountReconciliation(account.name(), account.dialect(), AccountReconciliation.Method.STATUS_CHECK,
                        checked.result(), checked.notLookedUp(), null);
            }
            Reconciliation result = new Reconciler(gateway, journal.reconciliations(), journal, pendingTimeout, clock)
                    .atAccount(account.name()).reconcile(day);
            return new AccountReconciliation(account.name(), account.dialect(), AccountReconciliation.Method.HISTORY,
                    result, 0, null);
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

    static String failures(AccountsSummary summary) {
        return String.join("; ", summary.accounts().stream().filter(a -> !a.reconciled())
                .map(a -> a.account() + ": " + a.failure()).toList());
    }
}
