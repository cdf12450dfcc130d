package org.topupbatch.track;



import java.time.Clock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.RowOutcomes;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.OrderStatus;
import org.topupbatch.provider.ProviderException;

/**
 * Writes down what the provider says of a tracked order (pending or unknown), and when to look
 * at it again. The journal changes only on the provider's own word; an order the provider holds
 * for another product or customer under our ref_id is not ours and is refused as such.
 */
public class TrackedOrders {

    private static final Logger LOG = LoggerFactory.getLogger(TrackedOrders.class);

    private final RowOutcomes journal;
    private final Clock clock;
    private final Predicate<RowRecord> webhooksSettle;

    /** {@code webhooksSettle}: signed webhooks settle orders, so pending orders are looked at less often. */
    public TrackedOrders(RowOutcomes journal, Clock clock, boolean webhooksSettle) {
        this(journal, clock, row -> webhooksSettle);
    }

    /** As above, per order: with several accounts only an account with a webhook secret has signed webhooks. */
    public TrackedOrders(RowOutcomes journal, Clock clock, Predicate<RowRecord> webhooksSettle) {
        this.journal = journal;
        this.clock = clock;
        this.webhooksSettle = webhooksSettle;
    }

    /**
     * The provider's check-order answer about an order it found under our ref_id while reconciling:
     * ours only when product and customer match.
     */
    void adopt(RowRecord row, Order order) {
        if (!OrderOutcomes.matches(row, order.refId(), order.productSku(), order.customerNo())) {
            notOurs(row, order.productSku());
            return;
        }
        settle(row, order);
    }

    /** The provider's check-order answer about a pending order of ours. */
    void settle(RowRecord row, Order order) {
        if (order.status() == null || order.status() == OrderStatus.PENDING) {
            stillPending(row, order.price(), OrderOutcomes.messageOr(order.message(), "pending"));
            return;
        }
        journal.recordOutcome(row.id(), OrderOutcomes.stateOf(order.status()), order.serialNumber(), order.price(),
                OrderOutcomes.messageOr(order.message(), order.status().wire()));
    }

    /** An order history entry about a tracked row. */
    void settle(RowRecord row, OrderListEntry entry) {
        if (!OrderOutcomes.matches(row, entry.refId(), entry.productSku(), entry.customerNo())) {
            notOurs(row, entry.productSku());
            return;
        }
        if (entry.status() == OrderStatus.PENDING) {
            stillPending(row, entry.price(), "pending");
            return;
        }
        journal.recordOutcome(row.id(), OrderOutcomes.stateOf(entry.status()), entry.serialNumber(), entry.price(),
                entry.status() == OrderStatus.SUCCESS ? "success" : "failed");
    }

    /**
     * The answer to the same ref_id sent again while reconciling: as for a first submission, an
     * answer that does not describe this order leaves its outcome unknown.
     */
    void recordResent(RowRecord row, Order order) {
        OrderOutcomes.recordResentAnswer(journal, clock, row, order);
    }

    /** The provider refused the order: it never existed. */
    void refuse(RowRecord row, String message) {
        journal.recordOutcome(row.id(), RowState.REFUSED, null, null, message);
    }

    /** The provider proved it never took an order of a cancelled batch: rejected, not sent again. */
    /** A row of a held batch its provider never took: queued again, sent after resume. */
    boolean requeueNeverTaken(RowRecord row) {
        return journal.requeueNeverTaken(row.id());
    }

    boolean rejectNeverTaken(RowRecord row, String message) {
        return journal.rejectNeverTaken(row.id(), message);
    }

    /** Nothing final learnt: the next look-up, backing off. */
    public void lookAgain(RowRecord row) {
        int checks = row.checks() + 1;
        journal.scheduleCheck(row.id(), CheckSchedule.next(clock.instant(), checks, row.state() == RowState.UNKNOWN,
                webhooksSettle.test(row)), checks);
    }

    /** The next look-up at a given time, not counted as a look-up made. */
    void lookAt(RowRecord row, java.time.Instant when) {
        journal.scheduleCheck(row.id(), when, row.checks());
    }

    /** The provider could not be asked now: look again later. */
    void later(RowRecord row, ProviderException e) {
        if (!ProviderException.INTERRUPTED.equals(e.code())) { // the run is stopping: nothing to report
            LOG.warn("Could not check order {} now: {}", row.refId(), e.getMessage());
        }
        lookAgain(row);
    }

    private void stillPending(RowRecord row, Long price, String message) {
        if (row.state() == RowState.UNKNOWN) {
            journal.recordOutcome(row.id(), RowState.PENDING, null, price, message);
        }
        lookAgain(row);
    }

    private void notOurs(RowRecord row, String theirProduct) {
        refuse(row, "refused: the provider holds another order under this ref_id (" + theirProduct + ")");
    }
}
