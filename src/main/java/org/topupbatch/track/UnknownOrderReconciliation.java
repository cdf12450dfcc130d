package org.topupbatch.track;



import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchControl;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.ProviderError;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;

/**
 * Settles an order whose outcome is unknown (the request may or may not have reached the
 * provider): look it up; if it is not there, send the same ref_id again, which is always safe
 * (the provider answers DUPLICATE_REF_ID when it exists), then find it in the history. Never
 * re-created under a new ref_id, never declared failed on a guess.
 *
 * <p>The operator's hand counts here too, because sending again would be a new order: while the
 * row's batch is held, nothing is sent again (the row waits for {@code resume}); once it is
 * cancelled, a row the provider's check-order does not know is rejected as cancelled instead of
 * sent, provided its first request left at least {@link #SETTLED_AFTER} ago (a provider still busy
 * with a slow request would not know it yet). Without check-order the same ref_id is sent again as
 * before: that is the only way to learn whether the first request made the order.
 */
public class UnknownOrderReconciliation {

    private static final Logger LOG = LoggerFactory.getLogger(UnknownOrderReconciliation.class);

    /** How long after its request an order unknown to check-order is taken as never made, for a cancel. */
    static final Duration SETTLED_AFTER = Duration.ofMinutes(2);

    private final ProviderGateway gateway;
    private final OrderHistorySearch history;
    private final TrackedOrders tracked;
    private final LongFunction<Optional<BatchRecord>> batches;
    private final Clock clock;
    private final OrderRequests requests;

    public UnknownOrderReconciliation(ProviderGateway gateway, OrderHistorySearch history, TrackedOrders tracked,
                                      LongFunction<Optional<BatchRecord>> batches, Clock clock) {
        this(gateway, history, tracked, batches, clock, new OrderRequests(null));
    }

    /** {@code requests}: the row's order exactly as it was first sent (its price limit included). */
    public UnknownOrderReconciliation(ProviderGateway gateway, OrderHistorySearch history, TrackedOrders tracked,
                                      LongFunction<Optional<BatchRecord>> batches, Clock clock, OrderRequests requests) {
        this.requests = requests;
        this.gateway = gateway;
        this.history = history;
        this.tracked = tracked;
        this.batches = batches;
        this.clock = clock;
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
                Optional<Order> found = gateway.checkOrder(row.orderRefId());
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
            // absent only if check-order still works: an endpoint found missing just now proves nothing
            if (stoppedByOperator(row, gateway.checkOrderSupported())) {
                return;
            }
        } else if (stoppedByOperator(row, false)) {
            return;
        }
        try {
            Order order = gateway.resend(requests.of(row), row.sentAt());
            LOG.info("Order {} re-sent under the same ref_id: {}", row.refId(), order.status());
            tracked.recordResent(row, order);
        } catch (ProviderException e) {
            if (e.outcomeUnknown() || ProviderException.CONNECTION_FAILED.equals(e.code())
                    || ProviderGateway.RESEND_WINDOW_PASSED.equals(e.code())) {
                throw e;
            }
            if (gateway.statusByResending()) {
                // This provider answers the existing order to the same ref_id: a refusal now proves
                // that the first request made none. A taken ref_id or refused credentials: ask later.
                if (e.is(ProviderError.DUPLICATE_REF_ID) || e.stopsSubmission() && !e.is(ProviderError.INSUFFICIENT_BALANCE)) {
                    throw e;
                }
                tracked.refuse(row, OrderOutcomes.refusal(e));
            } else if (e.is(ProviderError.DUPLICATE_REF_ID)) {
                history.find(row, null);
            } else if (e.stopsSubmission() && !e.is(ProviderError.INSUFFICIENT_BALANCE)) {
                throw e; // credentials: nothing can be learnt now; try again later
            } else {
                // Refused now: if the first request had made the order, it would be in the history.
                history.find(row, OrderOutcomes.refusal(e));
            }
        }
    }

    /**
     * True when the operator's hold or cancel keeps the row from being sent again; {@code provenAbsent}:
     * check-order has just said that the provider has no such order.
     */
    private boolean stoppedByOperator(RowRecord row, boolean provenAbsent) {
        Optional<BatchRecord> batch = batches.apply(row.batchId());
        if (batch.isEmpty() || !batch.get().held() && !batch.get().cancelled()) {
            return false;
        }
        if (!batch.get().cancelled() && !provenAbsent) {
            tracked.lookAgain(row); // held: sent again after resume, or settled by a cancel
            return true;
        }
        if (!provenAbsent) {
            return false;
        }
        // the latest request under this ref_id: a re-send leaves sent_at as it was, but its lost answer
        // made the row UNKNOWN again, which moved updated_at on
        Instant lastRequest = row.sentAt() == null ? row.updatedAt()
                : row.updatedAt() == null || row.sentAt().isAfter(row.updatedAt()) ? row.sentAt() : row.updatedAt();
        boolean settled = lastRequest == null || !clock.instant().isBefore(lastRequest.plus(SETTLED_AFTER));
        if (!settled) {
            tracked.lookAt(row, lastRequest.plus(SETTLED_AFTER)); // then the absence is trusted
        } else if (!batch.get().cancelled()) {
            // held: a row that never left is a queued row of the held batch, sent after resume (same ref_id);
            // so the batch's report and a once run need not wait for it
            if (tracked.requeueNeverTaken(row)) {
                LOG.info("Order {} of held batch {} was never taken by the provider: queued again, sent after resume",
                        row.refId(), batch.get().fileName());
            }
        } else if (tracked.rejectNeverTaken(row, BatchControl.cancelledMessage(batch.get().cancelledAt())
                + " (the provider has no order under this ref_id)")) {
            LOG.info("Order {} of cancelled batch {} was never taken by the provider: not sent again", row.refId(),
                    batch.get().fileName());
        }
        return true;
    }
}
