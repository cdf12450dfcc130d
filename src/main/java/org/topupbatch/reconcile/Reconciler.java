package org.topupbatch.reconcile;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.journal.ReconcileJournal.JournalOrder;
import org.topupbatch.journal.RowOutcomes;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;

/**
 * Reconciles one business day: the provider's history against the journal's orders, order by
 * order, and the balance's movement against the orders the provider lists. The journal follows
 * the provider's truth, loudly: an order whose final status differs takes the provider's (and is
 * listed), one the journal still had pending or unknown is settled (and listed). It never creates
 * an order: it reads the balance, the history and, for the balance before the day's first order,
 * that one order by check-order where the provider has it, else the day's first balance reading the
 * product journaled ({@link BalanceFromReadings}).
 *
 * <p>The balance is read first and the history after it, so that every order the balance already
 * reflects is listed; orders the provider created after the balance was read are left out of the
 * explanation. An order pending when the balance was read and refunded before the history was read
 * shows as {@code unexplained} by its price: a reconciliation run again once it is quiet clears it.
 */
public final class Reconciler {

    /**
     * An order of ours the provider has not confirmed yet (SENDING, UNKNOWN), sent within this time
     * before the balance was read, is not called missing yet: its request may still be on its way.
     */
    static final Duration IN_FLIGHT = Duration.ofMinutes(1);
    /** Any order of ours sent within this time before the balance was read: the provider's history may lag. */
    static final Duration HISTORY_LAG = Duration.ofSeconds(5);
    /** How far before the day an order of ours listed on the day may have been sent (just before midnight, say). */
    static final Duration SENT_BEFORE = Duration.ofDays(2);
    /** The day's first readings looked at for one that can be placed among the orders. */
    static final int MAX_READINGS = 1000;

    private final ProviderGateway gateway;
    private final ReconcileJournal journal;
    private final OrderComparison comparison;
    /** Several accounts: the account reconciled, whose orders alone are the journal's here; null with one account. */
    private String account;
    private final Clock clock;

    public Reconciler(ProviderGateway gateway, ReconcileJournal journal, RowOutcomes outcomes, Duration pendingTimeout,
                      Clock clock) {
        this.gateway = gateway;
        this.journal = journal;
        this.comparison = new OrderComparison(journal, outcomes, pendingTimeout, OrderComparison.Source.HISTORY);
        this.clock = clock;
    }

    /**
     * Several accounts: reconciles one account, whose history holds only its own orders; the journal's
     * orders are then those at this account, under the ref_id they carry there ({@code REF-F2}...).
     */
    public Reconciler atAccount(String account) {
        this.account = account;
        return this;
    }

    /** Reconciles {@code day}; a {@link ProviderException} means it could not (nothing is then changed). */
    public Reconciliation reconcile(ReconcileDay day) {
        Instant ranAt = clock.instant();
        Instant balanceAskedAt = clock.instant();
        long balanceNow = gateway.checkBalance().balance();
        Instant balanceReadBy = clock.instant();
        ProviderHistory.Listing listing = new ProviderHistory(gateway, clock).since(day.start());
        int requests = 1 + listing.requests();
        Map<String, OrderListEntry> atProvider = new HashMap<>();
        listing.orders().forEach(o -> atProvider.put(o.refId(), o));

        // the balance: from before the day's first order to now, explained by the orders in between.
        // created_at may be whole seconds: orders of the second the balance was asked in, and after it
        // until the answer came, may or may not be in it; the balance holds those up to the one whose
        // balance_after it equals (beside a running batch)
        Instant surelyBefore = balanceAskedAt.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        List<OrderListEntry> beforeBalanceRead = new ArrayList<>(listing.orders().stream()
                .filter(o -> o.createdAt() != null && o.createdAt().isBefore(surelyBefore)).toList());
        List<OrderListEntry> whileRead = listing.orders().stream().filter(o -> o.createdAt() != null
                && !o.createdAt().isBefore(surelyBefore) && !o.createdAt().isAfter(balanceReadBy)).toList();
        if (!whileRead.isEmpty() && gateway.checkOrderSupported()) {
            requests += whileRead.size();
            beforeBalanceRead.addAll(heldByBalance(whileRead, balanceNow));
        }
        Long fromCheckOrder = null;
        if (!beforeBalanceRead.isEmpty() && gateway.checkOrderSupported()) {
            requests++;
            fromCheckOrder = gateway.checkOrder(beforeBalanceRead.get(0).refId()).map(Order::balanceBefore).orElse(null);
        }
        Instant journalUntil = day.end().isBefore(balanceAskedAt) ? day.end() : balanceAskedAt;
        List<JournalOrder> sentThatDay = AccountOrders.at(account, journal.ordersSentBetween(day.start(), journalUntil));
        FirstBalance first = fromCheckOrder != null ? FirstBalance.fromCheckOrder(fromCheckOrder)
                : firstFromReadings(day, journalUntil, sentThatDay, beforeBalanceRead);
        long chargedSinceFirst = beforeBalanceRead.stream().mapToLong(OrderComparison::charge).sum();
        Long unexplained = first.known() ? balanceNow - first.balance() + chargedSinceFirst : null;

        // the orders: each of the day's, at the provider and in the journal
        // the journal's orders of the day up to the balance read (sentThatDay): later ones are the next reconciliation's
        Map<String, JournalOrder> ours = new LinkedHashMap<>();
        sentThatDay.forEach(o -> ours.put(o.row().orderRefId(), o));
        AccountOrders earlier = new AccountOrders(journal, account, day.start().minus(SENT_BEFORE), day.start());
        List<OrderListEntry> providerDay = listing.orders().stream().filter(o -> day.contains(o.createdAt())).toList();
        DayTally tally = new DayTally();
        for (OrderListEntry theirs : providerDay) {
            Optional<JournalOrder> mine = Optional.ofNullable(ours.get(theirs.refId()));
            if (mine.isEmpty()) {
                mine = earlier.byRef(theirs.refId()); // sent just before midnight, say
            }
            if (mine.isPresent() && OrderComparison.ours(mine.get(), theirs)) {
                ours.putIfAbsent(theirs.refId(), mine.get());
                continue;
            }
            tally.notOurs(theirs, mine.isPresent());
        }
        int inFlight = 0;
        for (JournalOrder mine : ours.values()) {
            OrderListEntry theirs = atProvider.get(mine.row().orderRefId());
            if (theirs != null && !OrderComparison.ours(mine, theirs)) {
                continue; // listed above as the provider's, unknown to the journal; ours stays as tracking has it
            }
            if (theirs != null && day.contains(theirs.createdAt())) {
                tally.money(theirs);
            }
            if (theirs == null && inFlight(mine.row(), balanceAskedAt)) {
                inFlight++; // sent moments ago, beside a running batch: the next reconciliation sees it listed
                continue;
            }
            tally.compared(mine, comparison.compare(day, mine, theirs, ranAt));
        }
        return tally.result(day, providerDay.size(), sentThatDay.size(), first, balanceNow, unexplained, inFlight,
                requests, ranAt);
    }

    /** Without check-order's answer: from the day's first balance reading the journal holds (docs/reconcile.md). */
    private FirstBalance firstFromReadings(ReconcileDay day, Instant until, List<JournalOrder> sentThatDay,
                                           List<OrderListEntry> heldByBalance) {
        Map<String, RowRecord> ours = new HashMap<>();
        sentThatDay.forEach(o -> ours.put(o.row().orderRefId(), o.row()));
        List<ReconcileJournal.BalanceReading> readings = journal.balanceReadings(account, day.start(), until, MAX_READINGS);
        return new BalanceFromReadings(ref -> Optional.ofNullable(ours.get(ref))).first(readings, heldByBalance);
    }

    private static boolean inFlight(RowRecord row, Instant balanceAskedAt) {
        if (row.sentAt() == null) {
            return false;
        }
        boolean unconfirmed = row.state() == RowState.SENDING || row.state() == RowState.UNKNOWN;
        return row.sentAt().isAfter(balanceAskedAt.minus(unconfirmed ? IN_FLIGHT : HISTORY_LAG));
    }

    /** Of orders placed while the balance was read, oldest first, those the balance read already holds. */
    private List<OrderListEntry> heldByBalance(List<OrderListEntry> whileRead, long balanceNow) {
        List<Order> found = new ArrayList<>();
        for (OrderListEntry entry : whileRead) {
            found.add(gateway.checkOrder(entry.refId()).orElse(null));
        }
        if (found.get(0) != null && Long.valueOf(balanceNow).equals(found.get(0).balanceBefore())) {
            return List.of();
        }
        for (int i = 0; i < found.size(); i++) {
            if (found.get(i) != null && Long.valueOf(balanceNow).equals(found.get(i).balanceAfter())) {
                return whileRead.subList(0, i + 1);
            }
        }
        return List.of(); // a deposit among them, say: judged by the time the balance was asked for
    }
}
