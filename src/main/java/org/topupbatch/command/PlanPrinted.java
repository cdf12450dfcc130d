package org.topupbatch.command;

import java.nio.file.Path;
import java.io.PrintStream;
import java.util.List;
import org.topupbatch.intake.BatchRow;
import org.topupbatch.intake.PlanSummary;
import org.topupbatch.intake.RowDecision;
import org.topupbatch.provider.ProductMap;
import org.topupbatch.provider.Routing;
import org.topupbatch.settings.BalancePolicy;
import org.topupbatch.text.OneLine;
import org.topupbatch.text.Rupiah;

/**
 * What {@code plan} prints (docs/operating.md, docs/accounts-and-dialects.md#several-accounts): for the one
 * account of topup.base-url the lines it always had (its balance less what running batches hold, judged
 * by the balance policy); for several accounts the map, each row's account, and then each account's
 * rows, cost, balance and time under its name.
 */
final class PlanPrinted {

    /** What the plan counted as the rows went by. */
    static final class Tally {
        long warnings;
        long waiting;
        long unroutable;
        /** The lone account's amount held for rows of running batches. */
        long reserved;
        boolean allOrNothingRefused;
    }

    private final PrintStream out;
    private final boolean lone;

    PlanPrinted(PrintStream out, boolean lone) {
        this.out = out;
        this.lone = lone;
    }

    void header(Path file, List<PlanAccount> accounts, Path mapFile, ProductMap map) {
        String plan = "Plan of " + OneLine.of(file.getFileName().toString()) + " (nothing is ordered; the file stays where it is)";
        if (lone) {
            out.println(plan + (accounts.get(0).session.sandbox()
                    ? ", with the embedded sandbox's prices: no provider is set" : ""));
            return;
        }
        List<String> names = PlanAccount.names(accounts);
        out.println(plan + ", routed across " + names.size() + " accounts: " + String.join(", ", names));
        out.println("Map:      " + (mapFile == null
                ? "none: every account sells every product under its own code, in the order of topup.providers"
                : OneLine.of(mapFile.toString()) + ", " + map.mappedProducts() + " products mapped; the others"
                        + " under their own code at every account, in the order of topup.providers"));
        for (PlanAccount a : accounts) {
            if (a.unreachable != null) {
                out.println("  account " + a.name + " could not be asked: " + a.unreachable + "; it takes no row");
            }
        }
    }

    void readAs(String encoding, char delimiter) {
        out.println("Read as:  " + encoding + ", delimiter " + (delimiter == '\t' ? "tab" : "'" + delimiter + "'"));
    }

    void rejected(BatchRow row, String rejection) {
        out.println("  rejected  line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(rejection, 500));
    }

    /** Each of the row's warnings; 1 when it has any. */
    int warnings(BatchRow row, RowDecision decision) {
        for (String warning : decision.warnings()) {
            out.println("  warning   line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(warning, 500));
        }
        return decision.warnings().isEmpty() ? 0 : 1;
    }

    void waits(BatchRow row, String message) {
        out.println("  waits     line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(message, 500));
    }

    void routed(BatchRow row, Routing.Candidate to) {
        out.println("  to " + to.account() + "  line " + row.line() + "  ref_id " + shown(row) + ": "
                + OneLine.of(row.productSku(), 100) + (to.sku().equals(row.productSku()) ? "" : " as " + to.sku())
                + ", " + Rupiah.format(to.price()));
    }

    void unroutable(BatchRow row, String reason) {
        out.println("  no account  line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(reason, 500));
    }

    /** The totals: the lone account's rows, cost, balance and time; or the rows, cost and each account's part. */
    void totals(PlanSummary summary, Tally tally, List<PlanAccount> accounts, BalancePolicy policy) {
        out.println();
        if (lone) {
            loneTotals(summary, tally, accounts.get(0), policy);
            return;
        }
        out.println("Rows:     " + summary.rows() + " read, " + (summary.accepted() - tally.unroutable) + " acceptable, "
                + summary.rejected() + " rejected, " + tally.unroutable + " no account can take"
                + (tally.warnings > 0 ? ", " + tally.warnings + " with warnings" : ""));
        out.println("Cost:     " + Rupiah.format(accounts.stream().mapToLong(a -> a.cost).sum())
                + " for the acceptable rows at the prices of the accounts they go to");
        for (PlanAccount a : accounts) {
            out.println("Account " + a.name + " (" + a.dialect + ", " + a.baseUrl + "): "
                    + (a.unreachable != null ? "could not be asked; no row" : rows(a.rows) + ", " + Rupiah.format(a.cost)));
            if (a.unreachable != null) {
                continue;
            }
            out.println("  Balance:  " + Rupiah.format(a.balance) + "; " + (a.cost <= a.balance
                    ? "it covers them (" + Rupiah.format(a.balance - a.cost) + " left)"
                    : "it does NOT cover them: " + Rupiah.format(a.cost - a.balance) + " short"));
            out.println("  Time:     " + PlanCommand.duration(a.rows, a.limits));
        }
    }

    private void loneTotals(PlanSummary summary, Tally tally, PlanAccount only, BalancePolicy policy) {
        out.println("Rows:     " + summary.rows() + " read, " + summary.accepted() + " acceptable, " + summary.rejected()
                + " rejected" + (tally.warnings > 0 ? ", " + tally.warnings + " with warnings" : "")
                + (tally.waiting > 0 ? "; " + tally.waiting + " of the acceptable waiting for the outcome of the order "
                        + (tally.waiting == 1 ? "it repeats" : "each repeats") : ""));
        out.println("Cost:     " + Rupiah.format(summary.totalPrice()) + " for the acceptable rows at the current prices");
        out.println("Balance:  " + Rupiah.format(only.balance) + (tally.reserved > 0 ? ", of which "
                + Rupiah.format(tally.reserved) + " is held for rows of running batches" : "") + "; "
                + coverage(policy, summary, only.balance - tally.reserved, tally.allOrNothingRefused));
        out.println("Time:     " + PlanCommand.duration(summary.accepted(), only.limits));
    }

    private static String coverage(BalancePolicy policy, PlanSummary summary, long balance, boolean allOrNothingRefused) {
        if (allOrNothingRefused) {
            return "it does not cover the batch, and the balance policy is all-or-nothing: no row would be ordered";
        }
        if (summary.rejected() > 0 && policy == BalancePolicy.BEST_EFFORT && summary.totalPrice() <= balance) {
            return "it covers the acceptable rows (" + Rupiah.format(balance - summary.totalPrice()) + " left)";
        }
        return "it covers the batch (" + Rupiah.format(balance - summary.totalPrice()) + " left)";
    }

    private static String rows(long n) {
        return n + (n == 1 ? " row" : " rows");
    }

    /** A ref_id as read, on one line: a quoted one may hold line breaks that would forge lines of the plan. */
    private static String shown(BatchRow row) {
        return row.refId().isEmpty() ? "(empty)" : OneLine.of(row.refId());
    }
}
