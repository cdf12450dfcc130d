package org.topupbatch.reconcile;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.journal.ReconcileJournal.JournalOrder;
import org.topupbatch.journal.RowOutcomes;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.ProviderError;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.track.OrderRequests;

/**
 * Reconciles one business day at an account without order history or check-order (Digiflazz,
 * docs/dialects.md): each of the journal's orders of the day at the account is looked up by its
 * documented status check, the same request sent again under the same ref_id, and compared as the
 * history's entries are. Orders the journal does not know cannot be found this way. The balance before
 * the day's first order comes from the day's first balance reading the product journaled
 * ({@link BalanceFromReadings}, each order placed by the time its request left); {@code unexplained}
 * then also holds what other clients' orders took, which no status check can list.
 *
 * <p>It never makes a call that could place an order. A re-send is a status check only for a
 * transaction the provider made; so only orders the provider answered as made (success, pending)
 * are re-sent, never one the journal has failed (a refusal at the last account is failed too, and
 * no transaction exists for it), unknown or being sent, and never after the dialect's window (89 of
 * Digiflazz's 90 days), when the same ref_id would be a new order. Those are counted as not looked up.
 */
public final class StatusCheckReconciler {

    private static final Logger LOG = LoggerFactory.getLogger(StatusCheckReconciler.class);

    /** The reconciliation, and how many of the journal's orders of the day could not be looked up. */
    public record Checked(Reconciliation result, int notLookedUp) {
    }

    private final ProviderGateway gateway;
    private final ReconcileJournal journal;
    private final OrderComparison comparison;
    private final OrderRequests requests;
    private final Clock clock;
    private final String account;

    /** @param account the account reconciled (several accounts), or null with one account */
    public StatusCheckReconciler(ProviderGateway gateway, ReconcileJournal journal, RowOutcomes outcomes,
                                 Duration pendingTimeout, OrderRequests requests, Clock clock, String account) {
        if (!gateway.statusByResending()) {
            throw new IllegalArgumentException("the account's dialect has no status check by re-sending");
        }
        this.gateway = gateway;
        this.journal = journal;
        this.comparison = new OrderComparison(journal, outcomes, pendingTimeout, OrderComparison.Source.STATUS_CHECK);
        this.requests = requests;
        this.clock = clock;
        this.account = account;
    }

    /** Whether the provider answered this order as made: only then is its re-send a status check. */
    static boolean madeAtProvider(RowRecord row) {
        return row.sentAt() != null && (row.state() == RowState.SUCCESS || row.state() == RowState.PENDING);
    }

    /**
     * Reconciles {@code day}; a {@link ProviderException} means the account could not be asked (a
     * connection refused, credentials refused), and nothing is then changed.
     */
    public Checked reconcile(ReconcileDay day) {
        Instant ranAt = clock.instant();
        Instant balanceAskedAt = clock.instant();
        long balanceNow = gateway.checkBalance().balance();
        int requestsMade = 1;
        Instant journalUntil = day.end().isBefore(balanceAskedAt) ? day.end() : balanceAskedAt;
        List<JournalOrder> sentThatDay = AccountOrders.at(account, journal.ordersSentBetween(day.start(), journalUntil));

        // every answer first, then the judgements: an account that stops answering half-way changes nothing
        Map<JournalOrder, OrderListEntry> answers = new LinkedHashMap<>();
        int notLookedUp = 0;
        for (JournalOrder mine : sentThatDay) {
            RowRecord row = mine.row();
            if (!java.util.Objects.equals(account, row.account())) {
                // never reached (the orders are this account's), and must stay so: another account's order
                // re-sent here would be a new order
                throw new IllegalStateException("order " + row.orderRefId() + " is at account " + row.account()
                        + ", not at " + account + "; not re-sent");
            }
            if (!madeAtProvider(row)) {
                notLookedUp++; // re-sending it could place it
                continue;
            }
            Order answer;
            try {
                answer = gateway.resend(requests.of(row), row.sentAt());
                requestsMade++;
            } catch (ProviderException e) {
                if (ProviderGateway.RESEND_WINDOW_PASSED.equals(e.code())) {
                    notLookedUp++; // refused before any request: too old to be asked safely
                    continue;
                }
                requestsMade++;
                if (e.is(ProviderError.CONNECTION_FAILED) || e.stopsSubmission()) {
                    throw e;
                }
                LOG.warn("Reconcile {}: the status check of order {} of {} was not answered with the order ({}: {}); not looked up",
                        day, row.orderRefId(), mine.batchFile(), e.code(), e.getMessage());
                notLookedUp++;
                continue;
            }
            // the answer has no creation time: the order's first request stands for it
            answers.put(mine, new OrderListEntry(answer.refId() != null ? answer.refId() : row.orderRefId(),
                    answer.productSku(), null, answer.customerNo(), answer.status(), answer.serialNumber(), answer.price(),
                    row.sentAt()));
        }
        DayTally tally = new DayTally();
        answers.forEach((mine, theirs) -> {
            if (!OrderComparison.ours(mine, theirs)) {
                tally.notOurs(theirs, true);
                return;
            }
            tally.money(theirs);
            tally.compared(mine, comparison.compare(day, mine, theirs, ranAt));
        });
        long found = answers.size();
        FirstBalance first = firstBalance(day, journalUntil, sentThatDay, answers);
        Long unexplained = null;
        if (first.known()) {
            long charged = answers.values().stream().mapToLong(OrderComparison::charge).sum();
            unexplained = balanceNow - first.balance() + charged;
        }
        return new Checked(tally.result(day, found, sentThatDay.size(), first, balanceNow, unexplained, 0, requestsMade, ranAt),
                notLookedUp);
    }

    /**
     * From the day's first balance reading; unknown while an order of the day could not be looked up
     * and may still hold money (a failed one holds none).
     */
    private FirstBalance firstBalance(ReconcileDay day, Instant until, List<JournalOrder> sentThatDay,
                                      Map<JournalOrder, OrderListEntry> answers) {
        List<String> unsure = sentThatDay.stream().filter(o -> !answers.containsKey(o) && o.row().state() != RowState.FAILED)
                .map(o -> o.row().orderRefId()).toList();
        if (!unsure.isEmpty()) {
            return FirstBalance.unknown(unsure.size() + " orders of the day could not be looked up (" + unsure.get(0)
                    + (unsure.size() > 1 ? ", ..." : "") + "): what they took is not known");
        }
        Map<String, RowRecord> ours = new java.util.HashMap<>();
        sentThatDay.forEach(o -> ours.put(o.row().orderRefId(), o.row()));
        List<OrderListEntry> held = answers.values().stream()
                .sorted(java.util.Comparator.comparing(OrderListEntry::createdAt)).toList();
        return new BalanceFromReadings(ref -> java.util.Optional.ofNullable(ours.get(ref)))
                .first(journal.balanceReadings(account, day.start(), until, Reconciler.MAX_READINGS), held);
    }
}
