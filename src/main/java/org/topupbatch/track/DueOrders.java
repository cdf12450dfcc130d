package org.topupbatch.track;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.journal.TrackingJournal;

/**
 * Takes the tracked orders whose check is due now: unknown ones to reconcile one by one, pending
 * ones grouped by product (one history page answers for many), joined by their product's orders due
 * in the next few seconds. A fresh pending order waiting for
 * its signed webhook is put off instead.
 */
public class DueOrders {

    /** One round of the track route: what to reconcile and what to poll. */
    public record Round(List<RowRecord> unknown, List<List<RowRecord>> pendingByProduct) {

        public boolean isEmpty() {
            return unknown.isEmpty() && pendingByProduct.isEmpty();
        }
    }

    private final TrackingJournal journal;
    private final Clock clock;
    private final Predicate<RowRecord> webhooksSettle;

    /**
     * {@code webhooksSettle}: signed webhooks reach us and settle orders, so a fresh pending order
     * waits for its webhook ({@link CheckSchedule#WEBHOOK_WAIT}) before the provider is asked.
     */
    public DueOrders(TrackingJournal journal, Clock clock, boolean webhooksSettle) {
        this(journal, clock, row -> webhooksSettle);
    }

    /** As above, per order: with several accounts only an account with a webhook secret has signed webhooks. */
    public DueOrders(TrackingJournal journal, Clock clock, Predicate<RowRecord> webhooksSettle) {
        this.journal = journal;
        this.clock = clock;
        this.webhooksSettle = webhooksSettle;
    }

    /** The accounts whose orders this node follows (two nodes with several accounts: those it leads). */
    private volatile org.topupbatch.cluster.AccountsLed led = org.topupbatch.cluster.AccountsLed.EVERY;

    public DueOrders ledBy(org.topupbatch.cluster.AccountsLed accounts) {
        this.led = accounts;
        return this;
    }

    /**
     * How far ahead a product's pending orders join a look-up that one of them, due now, makes
     * anyway. Orders go out evenly paced, so their checks come due one or two at a time; asked one
     * by one they would each cost a check-order. Taken together with the ones due within the next
     * few seconds, a product's orders reach the size where one history page answers for all of them
     * ({@link PendingOrderPolling#HISTORY_GROUP_MIN}). An order looked at a little early and still
     * pending is simply looked at again later.
     */
    static final Duration GATHER = CheckSchedule.FIRST_PENDING_CHECK;

    /**
     * At most {@code limit} orders, soonest due first: the unknown ones due now, and the pending ones
     * of each product that has one due now, with that product's orders due within {@link #GATHER}.
     */
    public Round take(int limit) {
        Instant now = clock.instant();
        Instant horizon = now.plus(GATHER);
        List<RowRecord> unknown = new ArrayList<>();
        Map<String, List<RowRecord>> pendingBySku = new LinkedHashMap<>();
        Set<String> productsDueNow = new HashSet<>();
        List<RowRecord> due;
        if (!led.apart()) {
            due = journal.dueForCheck(horizon, limit);
        } else {
            due = journal.dueForCheckAt(horizon, limit, led.scope()).stream()
                    .filter(row -> led.leads(row.account())).toList();
        }
        for (RowRecord row : due) {
            boolean dueNow = row.nextCheckAt() == null || !row.nextCheckAt().isAfter(now);
            if (row.state() == RowState.UNKNOWN) {
                if (dueNow) {
                    unknown.add(row);
                }
            } else if (row.state() == RowState.PENDING && (dueNow ? !waitsForWebhook(row) : mayGoEarly(row))) {
                String product = row.account() == null ? row.orderSku() : row.account() + "/" + row.orderSku();
                pendingBySku.computeIfAbsent(product, k -> new ArrayList<>()).add(row);
                if (dueNow) {
                    productsDueNow.add(product);
                }
            }
        }
        pendingBySku.keySet().retainAll(productsDueNow);
        return new Round(unknown, new ArrayList<>(pendingBySku.values()));
    }

    /** Not yet due: it may join its product's look-up, unless it is a fresh order waiting for its signed webhook. */
    private boolean mayGoEarly(RowRecord row) {
        return row.checks() > 0 || !webhooksSettle.test(row);
    }

    /**
     * A pending order never checked, sent less than {@link CheckSchedule#WEBHOOK_WAIT} ago, while
     * signed webhooks settle orders: its webhook will most likely settle it, so its first look-up
     * is put off until then. (A webhook hint counts as a check and so ends the wait.)
     */
    private boolean waitsForWebhook(RowRecord row) {
        if (!webhooksSettle.test(row) || row.checks() > 0 || row.sentAt() == null) {
            return false;
        }
        Instant due = row.sentAt().plus(CheckSchedule.WEBHOOK_WAIT);
        if (!due.isAfter(clock.instant())) {
            return false;
        }
        journal.scheduleCheck(row.id(), due, 0);
        return true;
    }
}
