package org.topupbatch.track;

import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.CrashPoints;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;

/**
 * Asks the provider about pending orders of one product whose check is due: a few by check-order,
 * many (or a provider without check-order) by order history pages. An order is never declared
 * failed for lack of an answer: it is looked at again later.
 */
public class PendingOrderPolling {

    private static final Logger LOG = LoggerFactory.getLogger(PendingOrderPolling.class);
    /** Below this many due orders of one product, one check-order each is cheaper than history pages. */
    static final int HISTORY_GROUP_MIN = 3;

    private final ProviderGateway gateway;
    private final OrderHistorySearch history;
    private final TrackedOrders tracked;
    private final OrderRequests requests;

    public PendingOrderPolling(ProviderGateway gateway, OrderHistorySearch history, TrackedOrders tracked) {
        this(gateway, history, tracked, new OrderRequests(null));
    }

    /** {@code requests}: the row's order exactly as first sent, for providers whose status check is a re-send. */
    public PendingOrderPolling(ProviderGateway gateway, OrderHistorySearch history, TrackedOrders tracked,
                               OrderRequests requests) {
        this.requests = requests;
        this.gateway = gateway;
        this.history = history;
        this.tracked = tracked;
    }

    /** Polls pending orders of one product (the track route hands them over grouped). */
    public void poll(List<RowRecord> sameProduct) {
        if (gateway.statusByResending()) {
            sameProduct.forEach(this::resendOne);
            return;
        }
        try {
            if (gateway.checkOrderSupported() && sameProduct.size() < HISTORY_GROUP_MIN) {
                for (RowRecord row : sameProduct) {
                    checkOne(row);
                }
            } else {
                history.findFinal(sameProduct);
            }
        } catch (ProviderException e) {
            sameProduct.forEach(row -> tracked.later(row, e));
        }
    }

    /**
     * The documented status check of a provider without check-order or history (Digiflazz): the same
     * request under the same ref_id, which answers the existing order and never makes a second one.
     */
    private void resendOne(RowRecord row) {
        Order order;
        try {
            order = gateway.resend(requests.of(row), row.sentAt());
            CrashPoints.pass(CrashPoints.TRACK_AFTER_ANSWER);
        } catch (ProviderException e) {
            if (e.outcomeUnknown() || e.transientFailure() || e.isRateLimited() || e.stopsSubmission()
                    || ProviderGateway.RESEND_WINDOW_PASSED.equals(e.code())) {
                tracked.later(row, e);
            } else {
                // The provider said pending before; a refusal of the same request now is its confusion.
                LOG.warn("Provider refused the status check of pending order {} ({}); will look again", row.refId(), e.code());
                tracked.lookAgain(row);
            }
            return;
        }
        tracked.settle(row, order);
    }

    private void checkOne(RowRecord row) {
        Optional<Order> order;
        try {
            order = gateway.checkOrder(row.orderRefId());
            CrashPoints.pass(CrashPoints.TRACK_AFTER_ANSWER);
        } catch (ProviderException e) {
            if (e.meansNoSuchOrder()) {
                // The provider said pending before; a missing order is its confusion, not a failure.
                LOG.warn("Provider does not find pending order {}; will look again", row.refId());
                tracked.lookAgain(row);
                return;
            }
            throw e;
        }
        if (order.isEmpty()) {
            history.findFinal(List.of(row)); // the provider has no check-order after all
            return;
        }
        tracked.settle(row, order.get());
    }
}
