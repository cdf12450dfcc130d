package org.topupbatch.command;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;
import org.topupbatch.config.ProviderSession;
import org.topupbatch.journal.JdbcJournal;
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

    private final Function<String, String> lookup;
    private final PrintStream out;
    private final PrintStream err;
    private final Clock clock;

    public ReconcileCommand(Function<String, String> lookup, PrintStream out, PrintStream err, Clock clock) {
        this.lookup = lookup;
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    @Override
    public int run(List<String> args) {
        if (args.size() > 1) {
            err.println("topup-batch: usage: java -jar topup-batch.jar reconcile [DAY] (YYYY-MM-DD in topup.business-zone;"
                    + " default yesterday)");
            return ExitCode.FAILED.code();
        }
        Settings settings = BatchArgument.settings(lookup, err).orElse(null);
        if (settings == null) {
            return ExitCode.FAILED.code();
        }
        if (!settings.severalAccounts() && !settings.providerHasHistory()) {
            err.println("topup-batch: cannot reconcile: the " + settings.dialect() + " dialect has no order history to"
                    + " compare the journal with (docs/dialects.md); use the provider's own transaction export");
            return ExitCode.FAILED.code();
        }
        ReconcileDay day;
        try {
            day = ReconcileDay.parse(args.isEmpty() ? null : args.get(0), settings.businessZone(), clock);
        } catch (ReconcileDay.BadDayException e) {
            err.println("topup-batch: cannot reconcile: " + e.getMessage());
            return ExitCode.FAILED.code();
        }
        if (settings.severalAccounts()) {
            return new AccountsReconcileCommand(lookup, out, err, clock).run(settings, day);
        }
        try (Journal journal = JdbcJournal.openForReading(settings.data(), settings.dbUrl(), settings.dbUser(),
                settings.dbPassword());
             ProviderSession provider = new ProviderSession(settings, lookup, journal, clock)) {
            provider.limits(); // the account's rate, so that paging keeps to it beside a running service
            ReconcileRun.Done done = new ReconcileRun(provider.gateway, journal,
                    new ReportWriter(settings.reports(), org.topupbatch.report.ReportDelivery.LOCAL, settings.reportCharset()).alsoXlsx(settings.reportXlsx()),
                    settings.reports(), settings.businessZone(), settings.pendingTimeout(), clock).run(day);
            print(done);
            return done.result().summary().exceptionCount() == 0 ? ExitCode.OK.code() : ExitCode.ATTENTION.code();
        } catch (JournalException e) {
            err.println("topup-batch: cannot reconcile " + day + ": " + e.getMessage());
        } catch (ProviderException e) {
            err.println("topup-batch: cannot reconcile " + day + ": the provider could not be asked: " + (e.stopsSubmission()
                    ? "it refused the credentials (" + e.code() + ")" : e.getMessage()));
        } catch (IOException e) {
            err.println("topup-batch: cannot reconcile " + day + ": cannot write into " + settings.reports() + ": "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()));
        } catch (SandboxStateException | IllegalStateException e) {
            err.println("topup-batch: cannot reconcile " + day + ": " + e.getMessage());
        }
        return ExitCode.FAILED.code();
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
