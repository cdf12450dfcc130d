package org.topupbatch.track;



import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderRequest;
import org.topupbatch.provider.ProviderError;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;

/**
 * Settles an order whose outcome is unknown (the request may or may not have reached the
 * provider): look it up; if it is not there, send the same ref_id again, which is always safe
 * (the provider answers DUPLICATE_REF_ID when it exists), then find it in the history. Never
 * re-created under a new ref_id, never declared failed on a guess.
 */
public class UnknownOrderReconciliation {

    private static final Logger LOG = LoggerFactory.getLogger(UnknownOrderReconciliation.class);

    private final ProviderGateway gateway;
    private final OrderHistorySearch history;
    private final TrackedOrders tracked;

    public UnknownOrderReconciliation(ProviderGateway gateway, OrderHistorySearch history, TrackedOrders tracked) {
        this.gateway = gateway;
        this.history = history;
        this.tracked = tracked;
    }

    /** Reconciles one unknown order (the track route hands them over one by one). */
    public void reconcile(RowRecord row) {
        try {
            lookUpOrResend(row);
        } catch (ProviderException e) {
            tracked.later(row, e);
        }
    }

    void lookUpOrResend(RowRecord row) {
        if (gateway.checkOrderSupported()) {
            try {
                Optional<Order> found = gateway.checkOrder(row.refId());
                if (found.isPresent()) {
                    tracked.adopt(row, found.get());
                    return;
                }
            } catch (ProviderException e) {
                if (!e.meansNoSuchOrder()) {
                    throw e;
                }
                // Not there: the earlier request never made an order. Sending it now is safe.
            }
        }
        try {
            Order order = gateway.createOrder(new OrderRequest(row.refId(), row.productSku(), row.customerNo(),
                    row.customerNoZone()));
            LOG.info("Order {} re-sent under the same ref_id: {}", row.refId(), order.status());
            tracked.recordResent(row, order);
        } catch (ProviderException e) {
            if (e.outcomeUnknown() || ProviderException.CONNECTION_FAILED.equals(e.code())) {
                throw e;
            }
            if (e.is(ProviderError.DUPLICATE_REF_ID)) {
                history.find(row, null);
            } else if (e.stopsSubmission() && !e.is(ProviderError.INSUFFICIENT_BALANCE)) {
                throw e; // credentials: nothing can be learnt now; try again later
            } else {
                // Refused now: if the first request had made the order, it would be in the history.
                history.find(row, OrderOutcomes.refusal(e));
            }
        }
    }
}
