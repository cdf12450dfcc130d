package org.topupbatch.reconcile;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.journal.ReconcileJournal.JournalOrder;

/**
 * The journal's orders at one account (docs/accounts-and-dialects.md#several-accounts), found by the ref_id their order
 * carries there. A row moved to its n-th account is ordered there as {@code REF-Fn}, which the journal
 * does not keep as such (long ref_ids are shortened with a hash), so such orders are found among those
 * sent at the account in a window before the day; the row's own ref_id is looked up directly. With one
 * account (null) every order is the account's and the journal's look-up by ref_id is used as it is.
 */
final class AccountOrders {

    private final ReconcileJournal journal;
    private final String account;
    private final Instant from;
    private final Instant to;
    private Map<String, JournalOrder> sent;

    AccountOrders(ReconcileJournal journal, String account, Instant from, Instant to) {
        this.journal = journal;
        this.account = account;
        this.from = from;
        this.to = to;
    }

    /** Of {@code orders}, those at {@code account}; all of them with one account (null). */
    static List<JournalOrder> at(String account, List<JournalOrder> orders) {
        return account == null ? orders : orders.stream().filter(o -> account.equals(o.row().account())).toList();
    }

    /** Our order at the account under {@code refId} as the provider lists it, if the journal has one. */
    Optional<JournalOrder> byRef(String refId) {
        if (account == null) {
            return journal.orderByRef(refId);
        }
        if (sent == null) {
            sent = new LinkedHashMap<>();
            at(account, journal.ordersSentBetween(from, to)).forEach(o -> sent.put(o.row().orderRefId(), o));
        }
        JournalOrder found = sent.get(refId);
        if (found != null) {
            return Optional.of(found);
        }
        return journal.orderByRef(refId).filter(o -> account.equals(o.row().account()) && refId.equals(o.row().orderRefId()));
    }
}
