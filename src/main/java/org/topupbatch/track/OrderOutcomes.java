package org.topupbatch.track;

import org.topupbatch.track.CheckSchedule;

import java.time.Clock;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.RowOutcomes;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderStatus;
import org.topupbatch.provider.ProviderException;

/** Maps what the provider says of an order to journal states, and checks the answer is about our order. */
public final class OrderOutcomes {

    private static final Logger LOG = LoggerFactory.getLogger(OrderOutcomes.class);

    private OrderOutcomes() {
    }

    /**
     * Records the provider's answer to the row's first create-order: an answer that does not describe
     * this order leaves its outcome unknown (looked up again soon); a pending order gets its first check
     * scheduled, unless a webhook's hint that came while the create-order was on its way scheduled one.
     */
    public static void recordAnswer(RowOutcomes journal, Clock clock, RowRecord row, Order order) {
        record(journal, clock, row, order, false);
    }

    /**
     * As {@link #recordAnswer}, for the same ref_id sent again while reconciling an unknown outcome: the
     * checks made while it was unknown are done with, a pending order starts its schedule afresh.
     */
    public static void recordResentAnswer(RowOutcomes journal, Clock clock, RowRecord row, Order order) {
        record(journal, clock, row, order, true);
    }

    private static void record(RowOutcomes journal, Clock clock, RowRecord row, Order order, boolean resent) {
        if (order.status() == null || !matches(row, order.refId(), order.productSku(), order.customerNo())) {
            String message = "the provider's answer does not describe this order";
            journal.recordOutcome(row.id(), RowState.UNKNOWN, null, null, message);
            journal.scheduleCheck(row.id(), CheckSchedule.next(clock.instant(), 0, true), 0);
            LOG.warn("Order {}: {}", row.refId(), message);
            return;
        }
        RowState state = stateOf(order.status());
        journal.recordOutcome(row.id(), state, order.serialNumber(), order.price(), messageOr(order.message(), order.status().wire()));
        if (state == RowState.PENDING && resent) {
            journal.scheduleCheck(row.id(), CheckSchedule.next(clock.instant(), 0, false), 0);
        } else if (state == RowState.PENDING) {
            journal.scheduleFirstCheck(row.id(), CheckSchedule.next(clock.instant(), 0, false));
        }
    }

    public static RowState stateOf(OrderStatus status) {
        return switch (status) {
            case SUCCESS -> RowState.SUCCESS;
            case FAILED -> RowState.FAILED;
            case PENDING -> RowState.PENDING;
        };
    }

    /**
     * True when an order the provider describes can be ours: same ref_id, and product and customer
     * match where the provider told them. A mismatch means the ref_id was used for another order
     * (outside this installation) or the answer makes no sense: either way it is not our order.
     */
    public static boolean matches(RowRecord row, String refId, String productSku, String customerNo) {
        if (refId != null && !refId.equals(row.orderRefId())) {
            return false;
        }
        if (productSku != null && !productSku.equalsIgnoreCase(row.orderSku())) {
            return false;
        }
        if (customerNo == null || Objects.equals(customerNo.trim(), row.customerNo().trim())) {
            return true;
        }
        // a provider without a zone field (Digiflazz) has the zone inside the number: "123456789 (2012)"
        String zone = row.customerNoZone();
        return zone != null && !zone.isBlank()
                && withoutSpacing(customerNo).equals(withoutSpacing(row.customerNo() + "(" + zone + ")"));
    }

    private static String withoutSpacing(String s) {
        return s.replaceAll("\\s+", "");
    }

    public static String messageOr(String message, String fallback) {
        return message == null || message.isBlank() ? fallback : message;
    }

    /** The message of a row the provider refused: its error code and, when it gave one, its words. */
    public static String refusal(ProviderException e) {
        String msg = e.providerMessage();
        return "refused by the provider: " + e.code() + (msg == null || msg.isBlank() ? "" : " (" + msg + ")");
    }
}
