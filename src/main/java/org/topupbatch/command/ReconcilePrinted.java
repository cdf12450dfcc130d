package org.topupbatch.command;

import java.io.PrintStream;
import org.topupbatch.reconcile.AccountReconciliation;
import org.topupbatch.reconcile.AccountsSummary;
import org.topupbatch.reconcile.ReconcileRun;
import org.topupbatch.reconcile.ReconcileSummary;
import org.topupbatch.text.Rupiah;

/**
 * What {@code reconcile} prints when it has reconciled (docs/reconcile.md): the one account of
 * topup.base-url in the lines it always had; several accounts with the day's line, then each
 * account's part under its name, then the files written.
 */
final class ReconcilePrinted {

    private final PrintStream out;

    ReconcilePrinted(PrintStream out) {
        this.out = out;
    }

    void print(ReconcileRun.Done done) {
        if (done.summary().lone()) {
            lone(done);
        } else {
            several(done);
        }
    }

    private void lone(ReconcileRun.Done done) {
        ReconcileSummary s = done.summary().accounts().get(0).result().summary();
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

    private void several(ReconcileRun.Done done) {
        AccountsSummary all = done.summary();
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
