package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The journal as tracking sees it: sent orders not yet final, when to look at them, and their outcome. */
public interface TrackingJournal extends RowOutcomes {

    /** PENDING and UNKNOWN rows whose next check is due at or before {@code now}, soonest first. */
    List<RowRecord> dueForCheck(Instant now, int limit);

    /**
     * Several accounts on two nodes (docs/two-nodes.md#two-nodes): as {@link #dueForCheck}, only orders in {@code scope}.
     */
    List<RowRecord> dueForCheckAt(Instant now, int limit, AccountScope scope);

    /**
     * Several accounts on two nodes, the active node taking over: SENDING rows at no account of
     * {@code configured} (no account's leader would ever look at them) become UNKNOWN. Returns how many.
     */
    int sendingToUnknownElsewhere(Instant now, java.util.List<String> configured);

    /**
     * A node taking the lead of one account: that account's SENDING rows (left by the node that led it)
     * become UNKNOWN, due for a check now. Returns how many.
     */
    int sendingToUnknownAt(Instant now, String account);

    /** Rows SENDING at this account now: requests of the node leading it whose outcome is not journaled yet. */
    int sendingAt(String account);

    /** The order row (not a rejected one) with this ref_id, from any batch. */
    Optional<RowRecord> findOrder(String refId);

    /** Start-up recovery: every SENDING row becomes UNKNOWN, due for a check now. Returns how many. */
    int sendingToUnknown(Instant now);

    /**
     * Start-up: PENDING orders of earlier runs are due for a check by {@code at} at the latest (a
     * webhook the provider sent while no run listened is lost). Returns how many were brought forward.
     */
    int pendingDueBy(Instant at);
}
