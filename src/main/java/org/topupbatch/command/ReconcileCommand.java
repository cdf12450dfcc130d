package org.topupbatch.command;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.topupbatch.config.ProviderSession;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.reconcile.ReconcileDay;
import org.topupbatch.reconcile.ReconcileRun;
import org.topupbatch.reconcile.AccountReconciliation;
import org.topupbatch.report.ReportDelivery;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.settings.AccountList;
import org.topupbatch.settings.ProviderAccount;
import org.topupbatch.track.OrderRequests;
import org.topupbatch.text.OneLine;
import org.topupbatch.run.ExitCode;
import org.topupbatch.sandbox.SandboxStateException;
import org.topupbatch.config.CommandSettings;

/**
 * {@code java -jar topup-batch.jar reconcile [DAY]} (docs/reconcile.md#reconcile-with-the-provider): the
 * provider's orders of a business day against the journal's, and the balance's movement explained.
 * Works beside a running service (its requests share the service's rate budget) and never creates
 * an order. Exit 0 when everything matches, 2 when exceptions are listed, 1 with one line when it
 * could not reconcile. With several accounts each is reconciled on its own, and exit 1 also
 * when one of them could not be (one line each on stderr; the others are reconciled and written all the same).
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
        CommandSettings settings = context.settings();
        for (ProviderAccount account : settings.accounts()) {
            // a named account without an order history is reconciled by a status check of each journaled
            // order; the unnamed account only by its history (docs/reconcile.md#reconcile-with-the-provider)
            if (!AccountList.reconcilable(account)) {
                throw new CommandFailure("cannot reconcile: the " + account.dialect() + " dialect has no order history to"
                        + " compare the journal with (docs/dialects.md); use the provider's own transaction export");
            }
        }
        ReconcileDay day;
        try {
            day = ReconcileDay.parse(args.isEmpty() ? null : args.get(0), settings.reconcile().businessZone(), context.clock());
        } catch (ReconcileDay.BadDayException e) {
            throw new CommandFailure("cannot reconcile: " + e.getMessage(), e);
        }
        List<ProviderSession> sessions = new ArrayList<>();
        try (Journal journal = context.openJournal()) {
            List<ReconcileRun.Account> accounts = ReconcileRun.accounts(settings.accounts(), account -> {
                // each account's own dialect, credentials and rate budget (its calls journaled under its name)
                ProviderSession session = account.name() == null ? context.providerSession(journal)
                        : settings.providerSession(account, journal, context.clock());
                sessions.add(session);
                session.limits(); // the account's rate, so that its calls keep to it beside a running service
                return session.gateway;
            });
            ReconcileRun.Done done = new ReconcileRun(accounts, journal.reconciliations(), journal.tracking(), journal.reporting(),
                    new ReportWriter(settings.folders().reports(), ReportDelivery.LOCAL, settings.report().charset())
                            .alsoXlsx(settings.report().xlsx())
                            .withAccounts(settings.provider().accounts().stream().map(ProviderAccount::name).toList())
                            .withCustomerNotices(journal.reporting()::customerNotices),
                    settings.folders().reports(), settings.reconcile().businessZone(), settings.track().pendingTimeout(),
                    new OrderRequests(settings.guards().priceTolerance()), context.clock()).run(day);
            new ReconcilePrinted(out).print(done);
            for (AccountReconciliation a : done.summary().accounts()) {
                if (!a.reconciled()) {
                    context.err().println(CommandContext.VOICE + "cannot reconcile account " + a.account() + " for " + day
                            + ": " + OneLine.of(a.failure(), 500));
                }
            }
            if (!done.summary().complete()) {
                return ExitCode.FAILED.code(); // each account's failure said above, the others' work written
            }
            return done.summary().exceptionCount() == 0 ? ExitCode.OK.code() : ExitCode.ATTENTION.code();
        } catch (ProviderException e) {
            throw cannot(day, "the provider could not be asked: " + (e.stopsSubmission()
                    ? "it refused the credentials (" + e.code() + ")" : e.getMessage()), e);
        } catch (IOException e) {
            throw cannot(day, "cannot write into " + settings.folders().reports() + ": "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        } catch (JournalException | SandboxStateException | IllegalStateException e) {
            throw cannot(day, e.getMessage(), e);
        } finally {
            sessions.forEach(ProviderSession::close);
        }
    }

    /** Why {@code day} could not be reconciled, as the operator reads it: {@code cannot reconcile DAY: ...}. */
    static CommandFailure cannot(ReconcileDay day, String why, Throwable cause) {
        return new CommandFailure("cannot reconcile " + day + ": " + why, cause);
    }
}
