package org.topupbatch.reconcile;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.topupbatch.journal.ReconcileJournal.JournalOrder;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.OrderStatus;

/**
 * A day's reconciliation at one account as it is counted up, order by order, whichever way the
 * provider's orders were found (its history, or a status check of each of ours): the lines, the money
 * of our orders and of those not ours, and what changed in the journal.
 */
final class DayTally {

    private final List<ReconcileLine> lines = new ArrayList<>();
    private final Set<Long> batchesChanged = new LinkedHashSet<>();
    private long matched;
    private long charged;
    private long refunded;
    private long foreignCharged;
    private int corrected;
    private int settled;

    /**
     * An order the provider holds that is not ours: {@code underOurRef} when the journal has an order under
     * its ref_id, for another product or customer (the journal is left as tracking has it).
     */
    void notOurs(OrderListEntry theirs, boolean underOurRef) {
        foreignCharged += OrderComparison.charge(theirs);
        lines.add(new ReconcileLine(ExceptionKind.UNKNOWN_TO_JOURNAL, theirs.refId(), theirs.productSku(),
                theirs.customerNo(), theirs.createdAt(), null, null, null, OrderComparison.wire(theirs.status()), null,
                theirs.price(), OrderComparison.charge(theirs), !underOurRef
                ? "the provider has this order; this installation never sent it (another client on the account?)"
                : "the provider holds another order under our ref_id (" + theirs.productSku() + " for "
                        + theirs.customerNo() + "): not ours, nothing changed in the journal"));
    }

    /** What one of our orders of the day took from the deposit, or gave back. */
    void money(OrderListEntry theirs) {
        charged += OrderComparison.charge(theirs);
        refunded += theirs.status() == OrderStatus.FAILED && theirs.price() != null ? theirs.price() : 0;
    }

    /** One of our orders as compared with the provider's. */
    void compared(JournalOrder mine, OrderComparison.Comparison c) {
        if (c.line() == null) {
            matched++;
            return;
        }
        lines.add(c.line());
        if (c.change() == OrderComparison.Change.CORRECTED) {
            corrected++;
            batchesChanged.add(mine.row().batchId());
        } else if (c.change() == OrderComparison.Change.SETTLED) {
            settled++; // its batch's report follows as for any order that settles
        }
    }

    Reconciliation result(ReconcileDay day, long providerOrders, long journalOrders, FirstBalance first, long balanceNow,
                          Long unexplained, int inFlight, int requests, Instant ranAt) {
        List<ReconcileLine> sorted = new ArrayList<>(lines);
        sorted.sort(ReconcileLine.ORDER);
        ReconcileSummary summary = new ReconcileSummary(day.toString(), day.zone().getId(), providerOrders,
                journalOrders, matched, ReconcileLine.countByKind(sorted), charged, refunded, foreignCharged,
                first.balance(), balanceNow, unexplained, corrected, settled, inFlight, requests, ranAt, first,
                day.end().isAfter(ranAt));
        return new Reconciliation(sorted, summary, batchesChanged);
    }
}
