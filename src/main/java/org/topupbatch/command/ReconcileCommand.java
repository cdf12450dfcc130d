package org.topupbatch.command;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import org.topupbatch.config.ProviderSession;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.reconcile.ReconcileDay;
import org.topupbatch.reconcile.ReconcileRun;
import org.topupbatch.reconcile.ReconcileSummary;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.text.Rupiah;
import org.topupbatch.run.ExitCode;
import org.topupbatch.sandbox.SandboxStateException;
import org.topupbatch.settings.Settings;

/**
 * {@code java -jar topup-batch.jar reconcile [DAY]} (README, "Reconcile with the provider"): the
 * provider's orders of a business day against the journal's, and the balance's movement explained.
 * Works beside a running service (its requests share the service's rate budget) and never creates
 * an order. Exit 0 when everything matches, 2 when exceptions are listed, 1 with one line when it
 * could not reconcile. With several accounts each is reconciled on its own ({@link AccountsReconcileCommand}).
 */
public final class ReconcileCommand implements Command {

    private final CommandContext context;
    private final PrintStream out;

    public ReconcileCommand(CommandContext context) {
        this.context = context;
        this.out = context.out();
    }

    @Override
    public int run(List<String> args) {
        return CommandFrame.run("reconcile", context, () -> reconcile(args));
    }

    private int reconcile(List<String> args) {
        if (args.size() > 1) {
            throw new CommandFailure.Usage("reconcile [DAY] (YYYY-MM-DD in topup.business-zone; default yesterday)");
        }
        Settings settings = context.settings();
        if (!settings.severalAccounts() && !settings.providerHasHistory()) {
            throw new CommandFailure("cannot reconcile: the " + settings.dialect() + " dialect has no order history to"
                    + " compare the journal with (docs/dialects.md); use the provider's own transaction export");
        }
        ReconcileDay day;
        try {
            day = ReconcileDay.parse(args.isEmpty() ? null : args.get(0), settings.businessZone(), context.clock());
        } catch (ReconcileDay.BadDayException e) {
            throw new CommandFailure("cannot reconcile: " + e.getMessage(), e);
        }
        if (settings.severalAccounts()) {
            return new AccountsReconcileCommand(context).run(settings, day);
        }
        try (Journal journal = context.openJournal();
             ProviderSession provider = context.providerSession(journal)) {
            provider.limits(); // the account's rate, so that paging keeps to it beside a running service
            ReconcileRun.Done done = new ReconcileRun(provider.gateway, journal,
                    new ReportWriter(settings.reports(), org.topupbatch.report.ReportDelivery.LOCAL, settings.reportCharset()).alsoXlsx(settings.reportXlsx()),
                    settings.reports(), settings.businessZone(), settings.pendingTimeout(), context.clock()).run(day);
            print(done);
            return done.result().summary().exceptionCount() == 0 ? ExitCode.OK.code() : ExitCode.ATTENTION.code();
        } catch (ProviderException e) {
            throw cannot(day, "the provider could not be asked: " + (e.stopsSubmission()
                    ? "it refused the credentials (" + e.code() + ")" : e.getMessage()), e);
        } catch (IOException e) {
            throw cannot(day, "cannot write into " + settings.reports() + ": "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        } catch (JournalException | SandboxStateException | IllegalStateException e) {
            throw cannot(day, e.getMessage(), e);
        }
    }

    /** Why {@code day} could not be reconciled, as the operator reads it: {@code cannot reconcile DAY: ...}. */
    static CommandFailure cannot(ReconcileDay day, String why, Throwable cause) {
        return new CommandFailure("cannot reconcile " + day + ": " + why, cause);
    }

    private void print(ReconcileRun.Done done) {
        ReconcileSummary s = done.result().summary();
        out.println("Reconciliation of " + s.day() + " (" + s.zone() + "), " + s.requests() + " provider requests, nothing ordered");
        String partial = ReconcileSummary.partialWords(s.day(), s.partial());
        if (partial != null) {
            out.println(partial);
        }
        out.println("Orders:      " + s.providerOrders() + " at the provider, " + s.journalOrders() + " in the journal, "
                + s.matched() + " matched");
        out.println("Exceptions:  " + (s.exceptionCount() == 0 ? "none" : s.exceptionCount() + " " + s.exceptions()));
        out.println("Money:       charged " + Rupiah.format(s.charged()) + ", refunded " + Rupiah.format(s.refunded())
                + ", orders unknown to the journal " + Rupiah.format(s.foreignCharged()));
        out.println("Balance:     " + s.balanceWords());
        if (s.corrected() + s.settled() > 0) {
            out.println("Journal:     " + s.corrected() + " orders corrected, " + s.settled()
                    + " settled from the provider's history; their batches' reports written again (earlier ones kept)");
        }
        out.println("Written:     " + done.files().csv() + ", " + done.files().summary());
    }
}
