package org.topupbatch.command;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.topupbatch.config.ProviderSession;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.reconcile.AccountReconciliation;
import org.topupbatch.reconcile.AccountsReconcileRun;
import org.topupbatch.reconcile.ReconcileDay;
import org.topupbatch.reconcile.ReconcileSummary;
import org.topupbatch.report.ReportDelivery;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.run.ExitCode;
import org.topupbatch.settings.ProviderAccount;
import org.topupbatch.settings.Settings;
import org.topupbatch.text.OneLine;
import org.topupbatch.text.Rupiah;
import org.topupbatch.track.OrderRequests;

/**
 * {@code reconcile [DAY]} with several accounts (README "Reconcile with the provider"): each account of
 * topup.providers reconciled on its own, with its own dialect, credentials and rate budget (its calls
 * journaled under its name, beside a running service's), into one pair of files. Exit 1 when an account
 * could not be reconciled (one line each on stderr; the others are reconciled and written all the same),
 * else 2 when exceptions are listed, else 0.
 */
final class AccountsReconcileCommand {

    private final CommandContext context;
    private final PrintStream out;
    private final PrintStream err;
    private final Clock clock;

    AccountsReconcileCommand(CommandContext context) {
        this.context = context;
        this.out = context.out();
        this.err = context.err();
        this.clock = context.clock();
    }

    int run(Settings settings, ReconcileDay day) {
        List<ProviderSession> sessions = new ArrayList<>();
        try (Journal journal = context.openJournal()) {
            List<AccountsReconcileRun.Account> accounts = new ArrayList<>();
            for (ProviderAccount account : settings.accounts()) {
                accounts.add(new AccountsReconcileRun.Account(account.name(), account.dialect(), () -> {
                    ProviderSession session = ProviderSession.forAccount(settings, account, journal, clock);
                    sessions.add(session);
                    session.limits(); // the account's rate, so that its calls keep to it beside a running service
                    return session.gateway;
                }));
            }
            AccountsReconcileRun.Done done = new AccountsReconcileRun(accounts, journal,
                    new ReportWriter(settings.reports(), ReportDelivery.LOCAL, settings.reportCharset())
                            .alsoXlsx(settings.reportXlsx())
                            .withAccounts(settings.accounts().stream().map(ProviderAccount::name).toList()),
                    settings.reports(), settings.businessZone(), settings.pendingTimeout(),
                    new OrderRequests(settings.priceTolerance()), clock).run(day);
            print(done);
            for (AccountReconciliation a : done.summary().accounts()) {
                if (!a.reconciled()) {
                    err.println(CommandContext.VOICE + "cannot reconcile account " + a.account() + " for " + day + ": "
                            + OneLine.of(a.failure(), 500));
                }
            }
            if (!done.summary().complete()) {
                return ExitCode.FAILED.code(); // each account's failure said above, the others' work written
            }
            return done.summary().exceptionCount() == 0 ? ExitCode.OK.code() : ExitCode.ATTENTION.code();
        } catch (JournalException e) {
            throw ReconcileCommand.cannot(day, e.getMessage(), e);
        } catch (IOException e) {
            throw ReconcileCommand.cannot(day, "cannot write into " + settings.reports() + ": "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        } finally {
            sessions.forEach(ProviderSession::close);
        }
    }

    private void print(AccountsReconcileRun.Done done) {
        var all = done.summary();
        out.println("Reconciliation of " + all.day() + " (" + all.zone() + "), " + all.accounts().size() + " accounts, "
                + all.requests() + " provider requests, nothing ordered");
        String partial = ReconcileSummary.partialWords(all.day(), all.partial());
        if (partial != null) {
            out.println(partial);
        }
        for (AccountReconciliation a : all.accounts()) {
            if (!a.reconciled()) {
                out.println("Account " + a.account() + " (" + a.dialect() + "): NOT reconciled: " + a.failure());
                continue;
            }
            ReconcileSummary s = a.result().summary();
            boolean history = a.method() == AccountReconciliation.Method.HISTORY;
            out.println("Account " + a.account() + " (" + a.dialect() + ", " + (history ? "its order history"
                    : "a status check of each journal order") + "), " + s.requests() + " requests");
            out.println("  Orders:      " + (history
                    ? s.providerOrders() + " at the provider, " + s.journalOrders() + " in the journal, " + s.matched() + " matched"
                    : s.journalOrders() + " in the journal, " + s.providerOrders() + " found at the provider, " + s.matched()
                    + " matched" + (a.notLookedUp() == 0 ? "" : ", " + a.notLookedUp() + " not looked up (failed, unknown or"
                    + " too old: re-sending them could place them)") + "; orders unknown to the journal cannot be listed"));
            out.println("  Exceptions:  " + (s.exceptionCount() == 0 ? "none" : s.exceptionCount() + " " + s.exceptions()));
            out.println("  Money:       charged " + Rupiah.format(s.charged()) + ", refunded " + Rupiah.format(s.refunded())
                    + (history ? ", orders unknown to the journal " + Rupiah.format(s.foreignCharged()) : ""));
            out.println("  Balance:     " + s.balanceWords() + (history ? ""
                    : " (other clients' orders on the account cannot be listed without an order history: they are in it)"));
            if (s.corrected() + s.settled() > 0) {
                out.println("  Journal:     " + s.corrected() + " orders corrected, " + s.settled()
                        + " settled from the provider; their batches' reports written again (earlier ones kept)");
            }
        }
        out.println("Written:     " + done.files().csv() + ", " + done.files().summary());
    }
}
