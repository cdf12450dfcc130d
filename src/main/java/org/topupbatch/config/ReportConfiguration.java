package org.topupbatch.config;

import java.time.Clock;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
import org.topupbatch.report.BatchReporter;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.report.RowFinalEvents;
import org.topupbatch.settings.Settings;

/**
 * Reporting (routes/report.yaml): the journal's row-final events feed the report route, which
 * writes a batch's report when it is due, into the reports folder or onto the SFTP server.
 */
public final class ReportConfiguration extends AreaConfiguration {

    private final Settings settings;
    private final Clock clock;
    private final JournalConfiguration journal;
    private final ProviderConfiguration provider;
    private final SftpConfiguration sftp;
    private final ObserveConfiguration observe;
    private final NotifyConfiguration notify;
    private BatchReporter reporter;

    public ReportConfiguration(Settings settings, Clock clock, JournalConfiguration journal, ProviderConfiguration provider,
                               SftpConfiguration sftp, ObserveConfiguration observe, NotifyConfiguration notify) {
        this.notify = notify;
        this.observe = observe;
        this.settings = settings;
        this.clock = clock;
        this.journal = journal;
        this.provider = provider;
        this.sftp = sftp;
    }

    /** Before any route runs: a row turning final is an event the report route aggregates per batch. */
    @Override
    public void configure(CamelContext camelContext) {
        RowFinalEvents events = new RowFinalEvents(camelContext);
        journal.onRowsFinal(events);
        // a report that waits for its customers' messages is looked at again when one is settled
        notify.onCustomerOutcome(events::rowsFinal);
    }

    /** The daily reconciliation of routes/reconcile.yaml (docs/reconcile.md#reconcile-with-the-provider). */
    @BindToRegistry("reconcileRun")
    public org.topupbatch.reconcile.DailyReconciliation reconcileRun() {
        // each account through its own gateway, so within its own rate budget (docs/accounts-and-dialects.md#several-accounts)
        return new org.topupbatch.reconcile.ReconcileRun(
                org.topupbatch.reconcile.ReconcileRun.accounts(org.topupbatch.settings.AccountList.of(settings), a -> provider.gateway(a.name())),
                journal.journal().reconciliations(), journal.journal().tracking(), journal.journal().reporting(),
                new ReportWriter(settings.folders().reports(), sftp.reportDelivery(), settings.report().charset()).alsoXlsx(settings.report().xlsx())
                        .withAccounts(settings.provider().accounts().stream().map(org.topupbatch.settings.ProviderAccount::name).toList())
                        .withAccountBalances(provider::lastBalance)
                        .withCustomerNotices(journal.journal().reporting()::customerNotices),
                settings.folders().reports(), settings.reconcile().businessZone(), settings.track().pendingTimeout(),
                new org.topupbatch.track.OrderRequests(settings.guards().priceTolerance()), clock)
                .withNotices(notice -> notify.notifications().messagesFor(notice, null));
    }

    /** The notifications, for the areas wired after this one. */
    public org.topupbatch.notify.Notifications notifications() {
        return notify.notifications();
    }

    @BindToRegistry("batchReporter")
    public synchronized BatchReporter batchReporter() {
        if (reporter == null) {
            ReportWriter files = new ReportWriter(settings.folders().reports(), sftp.reportDelivery(), settings.report().charset())
                    .alsoXlsx(settings.report().xlsx())
                    .withAccounts(settings.provider().accounts().stream().map(org.topupbatch.settings.ProviderAccount::name).toList())
                    .withAccountBalances(provider::lastBalance)
                    .withCustomerNotices(journal.journal().reporting()::customerNotices);
            // the notices and the ERP's callback go into the outbox with the record of the report
            org.topupbatch.report.ReportMessages messages = new org.topupbatch.report.ReportMessages(notify.notifications(),
                    notify.callbacks(), journal.outbox(), settings.notifications().lowBalance(), () -> journal.journal().intake().reservedAmount());
            reporter = new BatchReporter(journal.journal().reporting(), new org.topupbatch.report.ReportSchedule(
                    journal.journal().reporting(), clock,
                    settings.track().pendingTimeout()), new org.topupbatch.report.BatchReportWriter(journal.journal().reporting(),
                    provider.gateways(),
                    files, clock, (batch, complete, at, summary) -> observe.observability().metrics().reportWritten(batch, complete, at))
                    .recordingIn(journal.outbox(), messages));
        }
        return reporter;
    }
}
