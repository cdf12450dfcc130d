package org.topupbatch.submit;

import org.topupbatch.track.OrderOutcomes;

import org.topupbatch.track.CheckSchedule;

import java.time.Clock;
import java.time.Instant;
import java.util.function.Consumer;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.CrashPoints;
import org.topupbatch.journal.SubmissionJournal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.ProviderError;
import org.topupbatch.provider.ProviderException;

/**
 * Records what became of a row's create-order: the provider's answer, its refusal, or an outcome
 * nobody knows (reconciled later, never re-created and never called failed).
 */
public class SubmitOutcomes {

    /** Exchange property holding the row being submitted. */
    public static final String ROW = "TopupRow";

    private static final Logger LOG = LoggerFactory.getLogger(SubmitOutcomes.class);

    private final SubmissionJournal journal;
    private final OrderQueue queue;
    private final Consumer<ProviderException> rateLimited;
    private final Clock clock;

    /** @param rateLimited pauses every caller after the provider said "too many requests" */
    private final PriceGuard prices;
    private final ProductAvailability availability;

    SubmitOutcomes(SubmissionJournal journal, OrderQueue queue, Consumer<ProviderException> rateLimited, Clock clock,
                   PriceGuard prices, ProductAvailability availability) {
        this.journal = journal;
        this.queue = queue;
        this.rateLimited = rateLimited;
        this.clock = clock;
        this.prices = prices;
        this.availability = availability;
    }

    /** The provider answered the row's create-order. */
    public void record(@ExchangeProperty(ROW) RowRecord row, @ExchangeProperty(OrderQueue.SENT_AT) Instant sentAt,
                       Order order) {
        CrashPoints.pass(CrashPoints.SUBMIT_AFTER_ANSWER);
        recordAnswer(row, order);
        availability.worked(row.productSku(), sentAt);
        prices.observe(order, row);
    }

    /** The row's submission failed somewhere between waiting for the budget and recording the answer. */
    public void recordFailure(Exchange exchange) {
        RowRecord row = exchange.getProperty(ROW, RowRecord.class);
        Throwable failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        boolean sending = Boolean.TRUE.equals(exchange.getProperty(OrderQueue.SENDING, Boolean.class));
        recordFailure(row, failure, sending);
    }

    void recordFailure(RowRecord row, Throwable failure, boolean sending) {
        ProviderException e = providerException(failure);
        if (!sending) {
            // Still ACCEPTED: nothing left, the next round takes the row again.
            if (e == null || !e.is(ProviderError.INTERRUPTED)) {
                LOG.warn("Order {} not sent: {}; will try again", row.refId(), failure == null ? "?" : failure.getMessage());
            }
            return;
        }
        if (e == null) {
            // Anything else happened between marking and answer: the request may have gone out.
            unknown(row, "no usable answer (" + (failure == null ? "?" : failure.getClass().getSimpleName()) + ")");
        } else {
            recordError(row, e);
        }
    }

    /** Records a provider order answer for a row (also used when reconciling). */
    void recordAnswer(RowRecord row, Order order) {
        OrderOutcomes.recordAnswer(journal, clock, row, order);
    }

    private void recordError(RowRecord row, ProviderException e) {
        if (e.isRateLimited()) {
            // Refused before it was taken: every caller pauses and the row waits its turn again.
            rateLimited.accept(e);
            journal.returnToQueue(row.id());
        } else if (e.outcomeUnknown()) {
            unknown(row, "no usable answer from the provider (" + e.code() + ")");
        } else if (e.meansOrderExists()) {
            // An order with this ref_id exists: find out whose and how it ended; never "failed".
            unknown(row, "the provider already knows this ref_id; looking it up");
        } else if (e.meansAnotherAccountMayTakeIt() && row.hasNextAccount()) {
            // several accounts: no order exists here, and another account may take the row
            fallBack(row, e);
        } else if (e.nothingSent()) {
            journal.returnToQueue(row.id());
            if (!queue.refusing()) {
                LOG.warn("Provider not reachable for {}: {}; will try again", row.refId(), e.getMessage());
            }
        } else if (e.stopsSubmission()) {
            stop(row, e);
        } else {
            journal.recordOutcome(row.id(), RowState.REFUSED, null, null, OrderOutcomes.refusal(e));
            if (row.route() != null) {
                // several accounts: its account's other rows of the product are not sent there for a while
                queue.accountOutages().refused(row, e);
            } else if (e.meansProductUnavailable()) {
                availability.refused(row, e);
            }
        }
    }

    /**
     * Several accounts: the row's account refused it in a way that proves it made no order, and
     * another account can take it. The row goes back to the queue at its next account, under the
     * next ref_id (docs/accounts-and-dialects.md#several-accounts). Committed before anything is sent there: a crash
     * before this line leaves the row SENDING at this account, whose look-up finds no order and whose
     * re-send of the same ref_id is refused again (or, the product back, makes the one order).
     */
    private void fallBack(RowRecord row, ProviderException e) {
        queue.accountOutages().refused(row, e);
        org.topupbatch.journal.RowRoute.Stop next = row.route().at(row.attempt() + 1);
        String said = e.providerMessage() == null || e.providerMessage().isBlank() ? "" : " (" + e.providerMessage() + ")";
        String reason = row.account() + " refused " + row.orderRefId() + ": " + e.code() + said
                + "; sent to " + next.account() + " as " + org.topupbatch.provider.FallbackRefIds.of(row.refId(), row.attempt() + 1);
        if (journal.fallBack(row.id(), row.attempt(), next.price(), reason)) {
            LOG.warn("Order {}: {}", row.refId(), reason);
        }
    }

    private void stop(RowRecord row, ProviderException e) {
        String reason;
        if (e.is(ProviderError.INSUFFICIENT_BALANCE) && row.route() != null) {
            // several accounts: one account short of money stops only its own rows, not the batch
            journal.recordOutcome(row.id(), RowState.REFUSED, null, null, OrderOutcomes.refusal(e));
            queue.accountOutages().refused(row, e);
            return;
        }
        if (e.is(ProviderError.INSUFFICIENT_BALANCE)) {
            journal.recordOutcome(row.id(), RowState.REFUSED, null, null, OrderOutcomes.refusal(e));
            reason = "the provider reports insufficient balance (INSUFFICIENT_BALANCE); the rest of the batch was not submitted";
        } else {
            // Not this row's fault: it goes back to ACCEPTED and is reported as not submitted.
            journal.returnToQueue(row.id());
            reason = "the provider refused the credentials (" + e.code() + "); nothing more was submitted";
            queue.stopAll(reason);
        }
        queue.halt(row.batchId(), reason);
    }

    private void unknown(RowRecord row, String message) {
        journal.recordOutcome(row.id(), RowState.UNKNOWN, null, null, message);
        journal.scheduleCheck(row.id(), CheckSchedule.next(clock.instant(), 0, true), 0);
        LOG.warn("Order {}: {}", row.refId(), message);
    }

    private static ProviderException providerException(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ProviderException pe) {
                return pe;
            }
        }
        return null;
    }
}
