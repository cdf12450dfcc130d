package org.topupbatch.order;

import java.util.Objects;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.OrderStatus;
import org.topupbatch.provider.ProviderException;

/** Maps what the provider says of an order to journal states, and checks the answer is about our order. */
final class OrderOutcomes {

    private OrderOutcomes() {
    }

    static RowState stateOf(OrderStatus status) {
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
    static boolean matches(RowRecord row, String refId, String productSku, String customerNo) {
        if (refId != null && !refId.equals(row.refId())) {
            return false;
        }
        if (productSku != null && !productSku.equalsIgnoreCase(row.productSku())) {
            return false;
        }
        return customerNo == null || Objects.equals(customerNo.trim(), row.customerNo().trim());
    }

    static String messageOr(String message, String fallback) {
        return message == null || message.isBlank() ? fallback : message;
    }

    /** The message of a row the provider refused: its error code and, when it gave one, its words. */
    static String refusal(ProviderException e) {
        String msg = e.providerMessage();
        return "refused by the provider: " + e.code() + (msg == null || msg.isBlank() ? "" : " (" + msg + ")");
    }
}
