package org.topupbatch.order;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderRequest;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;

/**
 * Places the order of one ACCEPTED row. The row is marked SENDING and committed before the
 * request leaves, so a crash at any instant leaves a row whose state says what to do: ACCEPTED
 * (never sent), SENDING (maybe sent: reconcile), or the provider's answer.
 */
public class OrderSubmitter {

    private static final Logger LOG = LoggerFactory.getLogger(OrderSubmitter.class);

    private final Journal journal;
    private final ProviderGateway gateway;
    private final Clock clock;
    private final Set<Long> halted = ConcurrentHashMap.newKeySet();
    private final Set<Long> started = ConcurrentHashMap.newKeySet();
    private final AtomicReference<String> fatal = new AtomicReference<>();
    private final Object startLock = new Object();
    private volatile boolean refusing;

    public OrderSubmitter(Journal journal, ProviderGateway gateway, Clock clock) {
        this.journal = journal;
        this.gateway = gateway;
        this.clock = clock;
    }

    /** The next rows to submit, in batch and file order (the submit route splits them over workers). */
    public List<RowRecord> nextRows(int limit) {
        if (fatal.get() != null || refusing) {
            return List.of();
        }
        return journal.nextToSubmit(limit);
    }

    /** Set when the provider refused the credentials: nothing more is submitted by this process. */
    public String fatalProblem() {
        return fatal.get();
    }

    /** The run is stopping: rows not yet marked SENDING stay ACCEPTED for the next run. */
    public void refuseNewRows() {
        refusing = true;
    }

    public void submit(RowRecord row) {
        if (refusing || halted.contains(row.batchId()) || fatal.get() != null) {
            return;
        }
        if (!recordBalanceBefore(row.batchId())) {
            return;
        }
        if (!journal.markSending(row.id(), clock.instant())) {
            return; // another worker or an earlier run took it
        }
        org.topupbatch.app.CrashPoints.pass(org.topupbatch.app.CrashPoints.SUBMIT_AFTER_SENDING);
        Order order;
        try {
            order = gateway.createOrder(new OrderRequest(row.refId(), row.productSku(), row.customerNo(),
                    row.customerNoZone()));
        } catch (ProviderException e) {
            onError(row, e);
            return;
        } catch (RuntimeException e) {
            // Anything else happened between marking and answer: the request may have gone out.
            unknown(row, "no usable answer (" + e.getClass().getSimpleName() + ")");
            return;
        }
        org.topupbatch.app.CrashPoints.pass(org.topupbatch.app.CrashPoints.SUBMIT_AFTER_ANSWER);
        record(row, order);
    }

    /** Records a provider order answer for a row (also used when reconciling). */
    void record(RowRecord row, Order order) {
        if (order.status() == null || !OrderOutcomes.matches(row, order.refId(), order.productSku(), order.customerNo())) {
            unknown(row, "the provider's answer does not describe this order");
            return;
        }
        RowState state = OrderOutcomes.stateOf(order.status());
        journal.recordOutcome(row.id(), state, order.serialNumber(), order.price(),
                OrderOutcomes.messageOr(order.message(), order.status().wire()));
        if (state == RowState.PENDING) {
            journal.scheduleCheck(row.id(), CheckSchedule.next(clock.instant(), 0, false), 0);
        }
    }

    private void onError(RowRecord row, ProviderException e) {
        if (e.outcomeUnknown()) {
            unknown(row, "no usable answer from the provider (" + e.code() + ")");
        } else if ("DUPLICATE_REF_ID".equals(e.code())) {
            // An order with this ref_id exists: find out whose and how it ended; never "failed".
            unknown(row, "the provider already knows this ref_id; looking it up");
        } else if (ProviderException.CONNECTION_FAILED.equals(e.code()) || "INTERRUPTED".equals(e.code())) {
            // Nothing reached the provider: the row goes back to the queue.
            journal.returnToQueue(row.id());
            if (!refusing) {
                LOG.warn("Provider not reachable for {}: {}; will try again", row.refId(), e.getMessage());
            }
        } else if (ProviderGateway.stopsSubmission(e)) {
            stop(row, e);
        } else {
            journal.recordOutcome(row.id(), RowState.REFUSED, null, null, refusal(e));
        }
    }

    private void stop(RowRecord row, ProviderException e) {
        String reason;
        if ("INSUFFICIENT_BALANCE".equals(e.code())) {
            journal.recordOutcome(row.id(), RowState.REFUSED, null, null, refusal(e));
            reason = "the provider reports insufficient balance (INSUFFICIENT_BALANCE); the rest of the batch was not submitted";
        } else {
            // Not this row's fault: it goes back to ACCEPTED and is reported as not submitted.
            journal.returnToQueue(row.id());
            reason = "the provider refused the credentials (" + e.code() + "); nothing more was submitted";
            fatal.compareAndSet(null, reason);
        }
        if (halted.add(row.batchId())) {
            journal.haltBatch(row.batchId(), reason);
            LOG.error("Batch {} stopped: {}", batchName(row.batchId()), reason);
        }
    }

    static String refusal(ProviderException e) {
        String msg = e.providerMessage();
        return "refused by the provider: " + e.code() + (msg == null || msg.isBlank() ? "" : " (" + msg + ")");
    }

    private void unknown(RowRecord row, String message) {
        journal.recordOutcome(row.id(), RowState.UNKNOWN, null, null, message);
        journal.scheduleCheck(row.id(), CheckSchedule.next(clock.instant(), 0, true), 0);
        LOG.warn("Order {}: {}", row.refId(), message);
    }

    /**
     * Reads the balance right before a batch's first order, once per batch, before any of its
     * orders leave (the summary's balance_before).
     */
    private boolean recordBalanceBefore(long batchId) {
        if (started.contains(batchId)) {
            return true;
        }
        synchronized (startLock) {
            if (started.contains(batchId)) {
                return true;
            }
            BatchRecord batch = journal.batch(batchId).orElse(null);
            if (batch != null && batch.submitStartedAt() == null) {
                try {
                    long balance = gateway.checkBalance().balance();
                    journal.recordSubmitStart(batchId, balance, clock.instant());
                    LOG.info("Submitting batch {} (balance {} IDR)", batch.fileName(), balance);
                } catch (ProviderException e) {
                    LOG.warn("Could not read the balance before batch {}: {}; will try again", batch.fileName(), e.getMessage());
                    if (ProviderGateway.stopsSubmission(e)) {
                        fatal.compareAndSet(null, "the provider refused the credentials (" + e.code() + ")");
                    }
                    return false;
                }
            }
            started.add(batchId);
            return true;
        }
    }

    private String batchName(long batchId) {
        return journal.batch(batchId).map(BatchRecord::fileName).orElse("#" + batchId);
    }
}
