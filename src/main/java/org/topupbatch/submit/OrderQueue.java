package org.topupbatch.submit;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.CrashPoints;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.SubmissionJournal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderRequest;

/**
 * Which ACCEPTED rows go to the provider now, as the submit route's steps: the due rows, whether a
 * row may start (its batch not halted, its balance_before read), and ACCEPTED -> SENDING committed
 * right before its request leaves. Also what stops submission: a halted batch, credentials the
 * provider refused (nothing more this run), a run that is stopping.
 */
public class OrderQueue {

    /** Exchange property set once the row is committed as SENDING: from then on its request may have left. */
    public static final String SENDING = "TopupSending";
    /** Exchange property: when the row was marked SENDING (an answer to an order sent before an outage proves nothing). */
    public static final String SENT_AT = "TopupSentAt";

    private static final Logger LOG = LoggerFactory.getLogger(OrderQueue.class);

    private final SubmissionJournal journal;
    private final BalanceBefore balanceBefore;
    private final Clock clock;
    private final Set<Long> halted = ConcurrentHashMap.newKeySet();
    private final AtomicReference<String> fatal = new AtomicReference<>();
    private volatile boolean refusing;

    private final PriceGuard prices;
    private final ProductAvailability availability;
    private final OperatorHolds operator;
    private final java.util.function.IntSupplier perMinute;
    /** Told when a batch's submission stops (notifications): its file name and the reason. */
    private volatile StopNotices stopped = (batchId, file, reason) -> List.of();

    OrderQueue(SubmissionJournal journal, BalanceBefore balanceBefore, Clock clock, PriceGuard prices,
               ProductAvailability availability, java.util.function.IntSupplier perMinute) {
        this.perMinute = perMinute;
        this.journal = journal;
        this.balanceBefore = balanceBefore;
        this.clock = clock;
        this.prices = prices;
        this.availability = availability;
        this.operator = new OperatorHolds(journal, clock);
        this.accountOutages = new AccountOutages(clock);
    }

    /** Several accounts: what an account refused for all rows alike, moments ago. */
    private final AccountOutages accountOutages;

    AccountOutages accountOutages() {
        return accountOutages;
    }

    /**
     * The next round of rows to submit: about five seconds' worth at the account's rate (at least 16,
     * at most 1,000), the active batches in turn, each in file order. A round is short so that a batch
     * dropped behind a large one is taken within seconds (the next round starts when this one is done).
     */
    public List<RowRecord> due() {
        return due(Math.max(16, Math.min(1_000, perMinute.getAsInt() / 12)));
    }

    /** The next rows to submit, at most {@code limit}. */
    public List<RowRecord> due(int limit) {
        if (stoppedAll()) {
            return List.of();
        }
        if (!led.apart()) {
            return journal.nextToSubmit(limit);
        }
        // two nodes, one leader per account: only the rows at the accounts this node leads (and, on the
        // active node, those at no account of this run, which are moved on or rejected unsent)
        return journal.nextToSubmitAt(limit, led.scope()).stream().filter(row -> led.leads(row.account())).toList();
    }

    /** The accounts this node sends for (two nodes with several accounts: those it leads). */
    private volatile org.topupbatch.cluster.AccountsLed led = org.topupbatch.cluster.AccountsLed.EVERY;

    public void ledBy(org.topupbatch.cluster.AccountsLed accounts) {
        this.led = accounts;
    }

    /**
     * Whether the row may start waiting for the rate budget: its batch goes on (not halted, not held
     * or cancelled by an operator), its product is not held, its price is still acceptable, and its
     * batch's balance_before is known. Everything that can stop a row is asked here first, because a
     * row stopped after the budget's wait has spent a request slot for nothing; {@link #markSending}
     * asks again for what changed during the wait.
     */
    public boolean mayStart(RowRecord row) {
        if (stopped(row) || availability.held(row.productSku()) || operator.stopped(row.batchId())) {
            return false;
        }
        if (!prices.knows(row)) {
            return notAtAnAccountOfThisRun(row);
        }
        if (row.hasNextAccount() && movedOn(row)) {
            return false;
        }
        if (row.route() != null && !row.hasNextAccount() && accountOutages.refusedOutright(row)) {
            // its last account just refused its product (or its balance ran short) for other rows: not sent there again
            String why = accountOutages.refusing(row) + "; not sent, and no other account can take it";
            if (journal.rejectUnsent(row.id(), why)) {
                LOG.warn("Order {} rejected: {}", row.refId(), why);
            }
            return false;
        }
        try {
            balanceBefore.ensureRecorded(row.batchId());
            // before the budget, not after it: reading the list spends a request of its own
            if (!prices.refreshIfDue(row)) {
                if (row.hasNextAccount()) {
                    // several accounts: rows wait for no account that cannot be asked; unsent, they may move
                    accountOutages.pricesUnreadable(row);
                    movedOn(row);
                }
                return false;
            }
            return !rejectedForPrice(row);
        } catch (ProviderException e) {
            if (e.stopsSubmission()) {
                stopAll("the provider refused the credentials (" + e.code() + ")");
            }
            return false;
        }
    }

    /**
     * ACCEPTED -> SENDING, committed, right before the request leaves; false (the row is dropped and
     * stays ACCEPTED) when submission stopped meanwhile, the row is no longer ACCEPTED, its product is
     * held, or a new price is being read. A row whose price rose too far is rejected here, unsent.
     * Called from inside the provider route (its body is the signed request by then), so the row comes
     * from the exchange.
     */
    public boolean markSending(@ExchangeProperty(SubmitOutcomes.ROW) RowRecord row, Exchange exchange) {
        if (stopped(row) || availability.held(row.productSku()) || prices.waitingForPrices(row)) {
            return false;
        }
        Instant sentAt = clock.instant();
        // the lead of its account may have gone to the other node during the wait (that node sends it);
        // the lead is held while the row is marked, so a hand-over waits for this row to be journaled
        if (rejectedForPrice(row) || !led.whileLeading(row.account(), () -> journal.markSending(row.id(), row.attempt(), sentAt))) {
            return false;
        }
        exchange.setProperty(SENDING, true);
        exchange.setProperty(SENT_AT, sentAt);
        CrashPoints.pass(CrashPoints.SUBMIT_AFTER_SENDING);
        return true;
    }

    /**
     * Several accounts: a queued row at an account topup.providers no longer names (or, with topup.providers
     * set, a row queued before it was) is never sent there: it moves on when another account can take
     * it, else it is rejected unsent (its ref_id free to be sent again in a new file).
     */
    private boolean notAtAnAccountOfThisRun(RowRecord row) {
        if (row.hasNextAccount() && prices.knows(row.route().at(row.attempt() + 1).account())) {
            org.topupbatch.journal.RowRoute.Stop next = row.route().at(row.attempt() + 1);
            String reason = row.account() + " is not an account of topup.providers now; sent to " + next.account() + " as "
                    + org.topupbatch.provider.FallbackRefIds.of(row.refId(), row.attempt() + 1);
            if (journal.moveOnUnsent(row.id(), row.attempt(), next.price(), reason)) {
                LOG.warn("Order {}: {}", row.refId(), reason);
            }
            return false;
        }
        String why = (row.account() == null ? "accepted before topup.providers was set"
                : "its account " + row.account() + " is not in topup.providers now") + "; not sent (drop it again to route it)";
        if (journal.rejectUnsent(row.id(), why)) {
            LOG.warn("Order {} rejected: {}", row.refId(), why);
        }
        return false;
    }

    /**
     * Several accounts: a queued row whose account has just refused its product (or its balance ran
     * short) goes to its next account without being sent here. Safe: a row still ACCEPTED at an
     * account has no order there.
     */
    private boolean movedOn(RowRecord row) {
        String why = accountOutages.refusing(row);
        if (why == null) {
            return false;
        }
        org.topupbatch.journal.RowRoute.Stop next = row.route().at(row.attempt() + 1);
        String reason = why + "; " + row.orderRefId() + " not sent there, sent to " + next.account() + " as "
                + org.topupbatch.provider.FallbackRefIds.of(row.refId(), row.attempt() + 1);
        if (journal.moveOnUnsent(row.id(), row.attempt(), next.price(), reason)) {
            LOG.info("Order {}: {}", row.refId(), reason);
        }
        return true;
    }

    /** Rejects the row, unsent, when its product's price now is beyond what it allows. */
    private boolean rejectedForPrice(RowRecord row) {
        java.util.Optional<String> tooDear = prices.refusal(row);
        if (tooDear.isEmpty()) {
            return false;
        }
        if (journal.rejectUnsent(row.id(), tooDear.get())) {
            LOG.warn("Order {} rejected: {}", row.refId(), tooDear.get());
        }
        return true;
    }

    /** The row as the provider's create-order request. */
    public ProviderRequest createOrder(RowRecord row, Exchange exchange) {
        if (row.account() != null) {
            // several accounts: the provider route signs, throttles and sends at the row's account
            exchange.setProperty(org.topupbatch.provider.ProviderExchange.ACCOUNT, row.account());
        }
        return ProviderRequest.createOrder(new org.topupbatch.track.OrderRequests(prices.tolerancePercent()).of(row));
    }

    /** The run is stopping: rows not yet marked SENDING stay ACCEPTED for the next run. */
    public void refuseNewRows() {
        refusing = true;
    }

    /** A node that stepped down and leads again takes rows again. */
    public void acceptNewRows() {
        refusing = false;
    }

    /** Set when the provider refused the credentials: nothing more is submitted by this process. */
    public String fatalProblem() {
        return fatal.get();
    }

    boolean refusing() {
        return refusing;
    }

    void stopAll(String reason) {
        fatal.compareAndSet(null, reason);
    }

    /** Stops submission of the row's batch (its ACCEPTED rows stay as they are). */
    void halt(long batchId, String reason) {
        if (halted.add(batchId)) {
            String file = journal.batch(batchId).map(BatchRecord::fileName).orElse("#" + batchId);
            // the stop and its notice in one transaction: a crash right after the stop cannot lose the notice
            boolean first = journal.haltBatch(batchId, reason, stopped.of(batchId, file, reason));
            LOG.error("Batch {} stopped: {}{}", file, reason, first ? "" : " (stopped already)");
            CrashPoints.pass(CrashPoints.STOP_AFTER_COMMIT);
        }
    }

    /** The outbox messages that tell of a batch's stop (the notifications' {@code batch_stopped}). */
    @FunctionalInterface
    public interface StopNotices {
        List<org.topupbatch.journal.Outbox.OutgoingMessage> of(long batchId, String file, String reason);
    }

    /** Who is told when a batch's submission stops: their messages are recorded with the stop. */
    public void onStopped(StopNotices notices) {
        this.stopped = notices;
    }

    private boolean stoppedAll() {
        return refusing || fatal.get() != null;
    }

    private boolean stopped(RowRecord row) {
        return stoppedAll() || halted.contains(row.batchId());
    }
}
