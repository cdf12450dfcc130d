package org.topupbatch.track;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.journal.RowRecord;

/**
 * Several accounts (README "Several accounts"): each pending or unknown order is followed at the
 * account it was sent to, by that account's own look-ups, never anywhere else. The track route's
 * beans {@code unknownOrderReconciliation} and {@code pendingOrderPolling} are this one then.
 */
public final class AccountsTracking {

    /** One account's way of following its orders. */
    public record Account(UnknownOrderReconciliation unknown, PendingOrderPolling pending) {
    }

    private final Map<String, Account> accounts;

    public AccountsTracking(Map<String, Account> accounts) {
        this.accounts = Map.copyOf(accounts);
    }

    /** An unknown order, at its account. */
    public void reconcile(RowRecord row) {
        account(row).unknown().reconcile(row);
    }

    /** Pending orders of one product, each group at its account. */
    public void poll(List<RowRecord> sameProduct) {
        Map<String, List<RowRecord>> byAccount = new LinkedHashMap<>();
        for (RowRecord row : sameProduct) {
            byAccount.computeIfAbsent(row.account(), k -> new ArrayList<>()).add(row);
        }
        byAccount.forEach((name, rows) -> account(rows.get(0)).pending().poll(rows));
    }

    private Account account(RowRecord row) {
        Account account = accounts.get(row.account());
        if (account == null) {
            // a row taken under a topup.providers that no longer names its account: it waits for it
            throw new IllegalStateException("order " + row.orderRefId() + " was sent to account " + row.account()
                    + ", which topup.providers does not name now; it is followed again once it does");
        }
        return account;
    }
}
