package org.topupbatch.reconcile;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.journal.ReconcileJournal.JournalOrder;
import org.topupbatch.journal.RowOutcomes;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.OrderStatus;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.track.OrderOutcomes;

/**
 * Reconciles one business day: the provider's history against the journal's orders, order by
 * order, and the balance's movement against the orders the provider lists. The journal follows
 * the provider's truth, loudly: an order whose final status differs takes the provider's (and is
 * listed), one the journal still had pending or unknown is settled (and listed). It never creates
 * an order: it reads the balance, the history and, for the balance before the day's first order,
 * that one order by check-order.
 *
 * <p>The balance is read first and the history after it, so that every order the balance already
 * reflects is listed; orders the provider created after the balance was read are left out of the
 * explanation. An order pending when the balance was read and refunded before the history was read
 * shows as {@code unexplained} by its price: a reconciliation run again once it is quiet clears it.
 */
public final class Reconciler {

    private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);
    /**
     * An order of ours the provider has not confirmed yet (SENDING, UNKNOWN), sent within this time
     * before the balance was read, is not called missing yet: its request may still be on its way.
     */
    static final Duration IN_FLIGHT = Duration.ofMinutes(1);
    /** Any order of ours sent within this time before the balance was read: the provider's history may lag. */
    static final Duration HISTORY_LAG = Duration.ofSeconds(5);
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final ProviderGateway gateway;
    private final ReconcileJournal journal;
    private final RowOutcomes outcomes;
    private final Duration pendingTimeout;
    private final Clock clock;

    public Reconciler(ProviderGateway gateway, ReconcileJournal journal, RowOutcomes outcomes, Duration pendingTimeout,
                      Clock clock) {
        this.gateway = gateway;
        this.journal = journal;
        this.outcomes = outcomes;
        this.pendingTimeout = pendingTimeout;
        this.clock = clock;
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
        Long balanceFirst = null;
        if (!beforeBalanceRead.isEmpty() && gateway.checkOrderSupported()) {
            requests++;
            balanceFirst = gateway.checkOrder(beforeBalanceRead.get(0).refId()).map(Order::balanceBefore).orElse(null);
        }
        long chargedSinceFirst = beforeBalanceRead.stream().mapToLong(Reconciler::charge).sum();
        Long unexplained = balanceFirst == null ? null : balanceNow - balanceFirst + chargedSinceFirst;

        // the orders: each of the day's, at the provider and in the journal
        // the journal's orders of the day up to the balance read: later ones are the next reconciliation's
        Instant journalUntil = day.end().isBefore(balanceAskedAt) ? day.end() : balanceAskedAt;
        List<JournalOrder> sentThatDay = journal.ordersSentBetween(day.start(), journalUntil);
        Map<String, JournalOrder> ours = new LinkedHashMap<>();
        sentThatDay.forEach(o -> ours.put(o.row().refId(), o));
        List<OrderListEntry> providerDay = listing.orders().stream().filter(o -> day.contains(o.createdAt())).toList();
        List<ReconcileLine> lines = new ArrayList<>();
        long foreignCharged = 0;
        for (OrderListEntry theirs : providerDay) {
            Optional<JournalOrder> mine = Optional.ofNullable(ours.get(theirs.refId()));
            if (mine.isEmpty()) {
                mine = journal.orderByRef(theirs.refId()); // sent just before midnight, say
            }
            if (mine.isPresent() && ours(mine.get(), theirs)) {
                ours.putIfAbsent(theirs.refId(), mine.get());
                continue;
            }
            foreignCharged += charge(theirs);
            lines.add(new ReconcileLine(ExceptionKind.UNKNOWN_TO_JOURNAL, theirs.refId(), theirs.productSku(),
                    theirs.customerNo(), theirs.createdAt(), null, null, null, wire(theirs.status()), null,
                    theirs.price(), charge(theirs), mine.isEmpty()
                    ? "the provider has this order; this installation never sent it (another client on the account?)"
                    : "the provider holds another order under our ref_id (" + theirs.productSku() + " for "
                            + theirs.customerNo() + "): not ours, nothing changed in the journal"));
        }
        long matched = 0;
        long charged = 0;
        long refunded = 0;
        int corrected = 0;
        int settled = 0;
        int inFlight = 0;
        Set<Long> batchesChanged = new LinkedHashSet<>();
        for (JournalOrder mine : ours.values()) {
            OrderListEntry theirs = atProvider.get(mine.row().refId());
            if (theirs != null && !ours(mine, theirs)) {
                continue; // listed above as the provider's, unknown to the journal; ours stays as tracking has it
            }
            if (theirs != null && day.contains(theirs.createdAt())) {
                charged += charge(theirs);
                refunded += theirs.status() == OrderStatus.FAILED && theirs.price() != null ? theirs.price() : 0;
            }
            if (theirs == null && inFlight(mine.row(), balanceAskedAt)) {
                inFlight++; // sent moments ago, beside a running batch: the next reconciliation sees it listed
                continue;
            }
            Comparison c = compare(day, mine, theirs, ranAt);
            if (c.line == null) {
                matched++;
                continue;
            }
            lines.add(c.line);
            if (c.change == Change.CORRECTED) {
                corrected++;
                batchesChanged.add(mine.row().batchId());
            } else if (c.change == Change.SETTLED) {
                settled++; // its batch's report follows as for any order that settles
            }
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        Map<ExceptionKind, Long> byKind = new EnumMap<>(ExceptionKind.class);
        lines.forEach(l -> byKind.merge(l.kind(), 1L, Long::sum));
        for (ExceptionKind kind : ExceptionKind.values()) {
            counts.put(kind.wire(), byKind.getOrDefault(kind, 0L));
        }
        lines.sort(java.util.Comparator.comparing(ReconcileLine::kind)
                .thenComparing(l -> l.createdAt() == null ? Instant.MIN : l.createdAt()));
        ReconcileSummary summary = new ReconcileSummary(day.toString(), day.zone().getId(), providerDay.size(),
                sentThatDay.size(), matched, counts, charged, refunded, foreignCharged, balanceFirst, balanceNow,
                unexplained, corrected, settled, inFlight, requests, ranAt);
        return new Reconciliation(lines, summary, batchesChanged);
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

    private enum Change { NONE, CORRECTED, SETTLED }

    private record Comparison(ReconcileLine line, Change change) {
        static final Comparison SAME = new Comparison(null, Change.NONE);
    }

    /** The provider's order under our ref_id is ours only for our product and customer (as tracking judges it). */
    private static boolean ours(JournalOrder mine, OrderListEntry theirs) {
        return OrderOutcomes.matches(mine.row(), theirs.refId(), theirs.productSku(), theirs.customerNo());
    }

    private Comparison compare(ReconcileDay day, JournalOrder mine, OrderListEntry theirs, Instant now) {
        RowRecord row = mine.row();
        if (theirs == null) {
            return new Comparison(line(ExceptionKind.MISSING_AT_PROVIDER, mine, null, row.price(),
                    "the journal has this order " + row.state().name().toLowerCase(java.util.Locale.ROOT)
                            + (row.sentAt() == null ? "" : " (sent " + WHEN.format(row.sentAt()) + ")")
                            + "; the provider's history does not list it"), Change.NONE);
        }
        if (theirs.status() == OrderStatus.PENDING || theirs.status() == null) {
            if (theirs.createdAt() != null && theirs.createdAt().plus(pendingTimeout).isBefore(now)) {
                return new Comparison(line(ExceptionKind.PENDING_TOO_LONG, mine, theirs, theirs.price(),
                        "still pending at the provider " + Duration.between(theirs.createdAt(), now).toMinutes()
                                + " min after it was placed (pending timeout " + pendingTimeout.toMinutes() + " min)"), Change.NONE);
            }
            if (row.state() == RowState.SUCCESS || row.state() == RowState.FAILED) {
                return new Comparison(line(ExceptionKind.STATUS_DIFFERS, mine, theirs, theirs.price(),
                        "the journal has it " + row.state().name().toLowerCase(java.util.Locale.ROOT)
                                + ", the provider still pending; left as it is until the provider settles it"), Change.NONE);
            }
            return Comparison.SAME;
        }
        RowState providerState = theirs.status() == OrderStatus.SUCCESS ? RowState.SUCCESS : RowState.FAILED;
        if (row.state() == providerState) {
            if (providerState == RowState.SUCCESS && row.price() != null && theirs.price() != null
                    && !row.price().equals(theirs.price())) {
                return new Comparison(line(ExceptionKind.PRICE_DIFFERS, mine, theirs, theirs.price() - row.price(),
                        "the provider charged " + theirs.price() + ", the journal recorded " + row.price()), Change.NONE);
            }
            return Comparison.SAME;
        }
        String found = "found by the reconciliation of " + day + " at " + WHEN.format(now);
        String was = row.state().name().toLowerCase(java.util.Locale.ROOT);
        if (row.state() == RowState.PENDING || row.state() == RowState.UNKNOWN || row.state() == RowState.SENDING) {
            boolean done = outcomes.recordOutcome(row.id(), providerState, theirs.serialNumber(), theirs.price(),
                    theirs.status().wire() + " (settled from the provider's history, " + found + "; the journal had it " + was + ")");
            if (done) {
                LOG.warn("Reconcile: order {} of {} was {} in the journal, the provider's history shows it {}: settled",
                        row.refId(), mine.batchFile(), was, theirs.status().wire());
            }
            return new Comparison(line(ExceptionKind.STATUS_DIFFERS, mine, theirs, theirs.price(),
                    "the journal had it " + was + ", the provider's history shows it " + theirs.status().wire()
                            + ": settled as " + theirs.status().wire()), done ? Change.SETTLED : Change.NONE);
        }
        String what = row.state() == RowState.SUCCESS ? "refunded after success" : "charged after "
                + (row.state() == RowState.FAILED ? "failure" : row.state() == RowState.REFUSED ? "a refusal" : "being rejected");
        boolean done = journal.correctOutcome(row.id(), providerState, theirs.serialNumber(), theirs.price(),
                what + ": the provider's history shows " + theirs.status().wire() + " (" + found + "; this report said "
                        + was + ")", now);
        if (done) {
            LOG.warn("Reconcile: order {} of {} was {} in the journal, the provider's history shows it {}: the journal"
                    + " follows the provider and the batch's report is written again", row.refId(), mine.batchFile(), was,
                    theirs.status().wire());
        }
        return new Comparison(line(ExceptionKind.STATUS_DIFFERS, mine, theirs, theirs.price(),
                what + ": the journal had " + was + ", the provider shows " + theirs.status().wire()
                        + (done ? "; the journal now follows the provider" : "")), done ? Change.CORRECTED : Change.NONE);
    }

    private static ReconcileLine line(ExceptionKind kind, JournalOrder mine, OrderListEntry theirs, Long amount, String message) {
        RowRecord row = mine.row();
        return new ReconcileLine(kind, row.refId(), row.productSku(), row.customerNo(),
                theirs != null ? theirs.createdAt() : row.sentAt(), mine.batchFile(), row.line(),
                row.state().name().toLowerCase(java.util.Locale.ROOT), theirs == null ? null : wire(theirs.status()),
                row.price(), theirs == null ? null : theirs.price(), amount, message);
    }

    /** What an order takes from the deposit as it stands: success and pending are charged, failed refunded. */
    static long charge(OrderListEntry order) {
        return order.status() == OrderStatus.FAILED || order.price() == null ? 0 : order.price();
    }

    private static String wire(OrderStatus status) {
        return status == null ? "" : status.wire();
    }
}
