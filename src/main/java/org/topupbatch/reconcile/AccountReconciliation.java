package org.topupbatch.reconcile;

import java.util.Locale;

/**
 * Several accounts (docs/accounts-and-dialects.md#several-accounts): one account's part of a day's reconciliation. It was
 * reconciled by its order history (the default dialect) or by status checks of the journal's orders
 * (Digiflazz, {@link StatusCheckReconciler}); or it could not be asked, and {@code failure} says why.
 */
public record AccountReconciliation(String account, String dialect, Method method, Reconciliation result,
                                    int notLookedUp, String failure) {

    /** How an account's orders are found at the provider. */
    public enum Method {
        /** Every order the provider lists, page by page. */
        HISTORY,
        /** Each of the journal's orders, by re-sending its request under its ref_id (no history to list). */
        STATUS_CHECK;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** An account that could not be reconciled: nothing of it was changed. */
    public static AccountReconciliation failed(String account, String dialect, String failure) {
        return new AccountReconciliation(account, dialect, null, null, 0, failure);
    }

    public boolean reconciled() {
        return result != null;
    }

    public long exceptionCount() {
        return reconciled() ? result.summary().exceptionCount() : 0;
    }

    /** The account's part in one line, as status shows the last reconciliation. */
    public String line() {
        if (!reconciled()) {
            return "not reconciled: " + failure;
        }
        ReconcileSummary s = result.summary();
        String exceptions = s.exceptionCount() == 0 ? "no exception" : s.exceptionCount() + " exceptions "
                + s.exceptions().entrySet().stream().filter(e -> e.getValue() > 0).map(e -> e.getKey() + " " + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
        if (method == Method.STATUS_CHECK) {
            return s.matched() + " of " + s.journalOrders() + " journal orders matched by status check"
                    + (notLookedUp == 0 ? "" : " (" + notLookedUp + " not looked up)") + ", " + exceptions
                    + "; orders unknown to the journal cannot be listed, balance " + org.topupbatch.text.Rupiah.format(s.balanceNow())
                    + ", unexplained " + (s.unexplained() == null ? "unknown" : org.topupbatch.text.Rupiah.format(s.unexplained()));
        }
        return s.matched() + " of " + s.providerOrders() + " provider orders matched, " + exceptions + ", unexplained "
                + (s.unexplained() == null ? "unknown" : org.topupbatch.text.Rupiah.format(s.unexplained()));
    }
}
