package org.topupbatch.reconcile;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.topupbatch.journal.ReconcileJournal.BalanceReading;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.OrderStatus;

/**
 * The balance before a day's first order from the balances the product read that day (journaled with
 * the moment each request left and its answer came, {@link BalanceReading}) and the orders the provider
 * lists: the day's first reading that can be placed among the orders, plus what the orders listed
 * before it still held of the deposit at that moment. This needs no check-order, so it works on the
 * five operations every provider has (docs/reconcile.md).
 *
 * <p>An order is before a reading when its {@code created_at} is before the second the request left
 * (created_at may be whole seconds), after it when later than the answer; one in between is placed by
 * the journal when it is ours and its request left after the answer came. A reading with an order that
 * cannot be placed is passed over for the next. A failed order before the reading still held its price
 * at the reading unless the journal knew of its failure before the reading's request left (ours: else the
 * reading is passed over); another client's failed order is taken as refunded before the reading (its
 * time of failure cannot be known).
 */
final class BalanceFromReadings {

    private final Function<String, Optional<RowRecord>> ourOrder;

    /** @param ourOrder the journal's order under a ref_id at this account, if it is ours */
    BalanceFromReadings(Function<String, Optional<RowRecord>> ourOrder) {
        this.ourOrder = ourOrder;
    }

    /**
     * @param readings the day's readings at the account, oldest first
     * @param orders   the orders the provider lists from the day's start, oldest first, that the balance
     *                 to be explained holds
     */
    FirstBalance first(List<BalanceReading> readings, List<OrderListEntry> orders) {
        if (readings.isEmpty()) {
            return FirstBalance.unknown("no balance read by the product on the day was journaled, and the provider"
                    + " tells no balance_before (no check-order)");
        }
        for (BalanceReading reading : readings) {
            Long held = heldAt(reading, orders);
            if (held != null) {
                return FirstBalance.fromReading(reading.balance() + held, reading.answeredAt());
            }
        }
        return FirstBalance.unknown("each of the day's " + readings.size() + " journaled balance readings was taken"
                + " while an order was being made, which cannot be placed before or after it");
    }

    /** What the orders before {@code reading} held of the deposit at that moment; null when one cannot be placed. */
    private Long heldAt(BalanceReading reading, List<OrderListEntry> orders) {
        Instant surelyBefore = reading.askedAt().truncatedTo(ChronoUnit.SECONDS);
        long held = 0;
        for (OrderListEntry order : orders) {
            if (order.createdAt() == null) {
                continue;
            }
            Optional<RowRecord> ours = ourOrder.apply(order.refId());
            if (order.createdAt().isAfter(reading.answeredAt())) {
                continue;
            }
            if (!order.createdAt().isBefore(surelyBefore)) {
                boolean leftAfter = ours.isPresent() && ours.get().sentAt() != null
                        && ours.get().sentAt().isAfter(reading.answeredAt());
                if (leftAfter) {
                    continue;
                }
                return null;
            }
            Long stillHeld = heldBy(order, ours, reading);
            if (stillHeld == null) {
                return null;
            }
            held += stillHeld;
        }
        return held;
    }

    /** What one order made before the reading held of the deposit at the reading; null when it cannot be told. */
    private static Long heldBy(OrderListEntry order, Optional<RowRecord> ours, BalanceReading reading) {
        if (order.price() == null) {
            return 0L;
        }
        if (order.status() != OrderStatus.FAILED) {
            return order.price();
        }
        if (ours.isEmpty()) {
            return 0L; // another client's: refunded, as far as can be known, before the reading
        }
        // the journal heard of the failure after the provider refunded it: known before the request left, refunded before
        boolean failedBefore = ours.get().state() == RowState.FAILED && ours.get().updatedAt() != null
                && ours.get().updatedAt().isBefore(reading.askedAt());
        return failedBefore ? 0L : null;
    }
}
