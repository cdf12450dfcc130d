package org.topupbatch.track;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.journal.RowRecord;

/**
 * Each pending or unknown order is followed at the account it was sent to (docs/accounts-and-dialects.md#several-accounts),
 * by that account's own look-ups, never anywhere else; with one account, at that one (no name). The
 * track route's beans {@code unknownOrderReconciliation} and {@code pendingOrderPolling} are this one.
 */
public final class AccountsTracking {

    /** One account's way of following its orders. */
    public record Account(UnknownOrderReconciliation unknown, PendingOrderPolling pending) {
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AccountsTracking.class);

    private final Map<String, Account> accounts;
    private final TrackedOrders tracked;
    /** Two nodes: the accounts whose orders this node follows now (asked again right before each look-up). */
    private final org.topupbatch.cluster.AccountsLed led;

    public AccountsTracking(Map<String, Account> accounts, TrackedOrders tracked) {
        this(accounts, tracked, org.topupbatch.cluster.AccountsLed.EVERY);
    }

    public AccountsTracking(Map<String, Account> accounts, TrackedOrders tracked, org.topupbatch.cluster.AccountsLed led) {
        this.accounts = new java.util.HashMap<>(accounts);
        this.tracked = tracked;
        this.led = led;
    }

    /** An unknown order, at its account. */
    public void reconcile(RowRecord row) {
        if (!led.leads(row.account())) {
            return; // the lead of its account went to the other node since this round was taken: that node follows it
        }
        Account account = account(row);
        if (account != null) {
            account.unknown().reconcile(row);
        }
    }

    /** Pending orders of one product, each group at its account. */
    public void poll(List<RowRecord> sameProduct) {
        Map<String, List<RowRecord>> byAccount = new LinkedHashMap<>();
        for (RowRecord row : sameProduct) {
            byAccount.computeIfAbsent(row.account() == null ? "" : row.account(), k -> new ArrayList<>()).add(row);
        }
        byAccount.forEach((name, rows) -> {
            if (!led.leads(rows.get(0).account())) {
                return; // led by the other node now
            }
            Account account = account(rows.get(0));
            if (account != null) {
                account.pending().poll(rows);
            } else {
                rows.subList(1, rows.size()).forEach(tracked::lookAgain);
            }
        });
    }

    /**
     * The row's account; null for an order sent under other settings (to an account topup.providers does not
     * name now, or by a single account before it was set): nobody here can ask about it, so it is looked at
     * again later, loudly, and never sent anywhere. It is followed again once the settings name its account.
     */
    private Account account(RowRecord row) {
        Account account = accounts.get(row.account()); // the one account of topup.base-url is under null
        if (account == null) {
            LOG.warn("Order {} was sent {}; it cannot be looked up with these settings and stays {} until they name"
                    + " its account again (docs/accounts-and-dialects.md#several-accounts)", row.orderRefId(),
                    row.account() == null ? "before topup.providers was set" : "to account " + row.account()
                            + ", which topup.providers does not name now", row.state());
            tracked.lookAgain(row);
        }
        return account;
    }
}
