package org.topupbatch.track;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.journal.TrackingJournal;

/**
 * Takes the tracked orders whose check is due now: unknown ones to reconcile one by one, pending
 * ones grouped by product (one history page answers for many). A fresh pending order waiting for
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

    /** At most {@code limit} due orders, soonest due first. */
    public Round take(int limit) {
        List<RowRecord> unknown = new ArrayList<>();
        Map<String, List<RowRecord>> pendingBySku = new LinkedHashMap<>();
        List<RowRecord> due;
        if (!led.apart()) {
            due = journal.dueForCheck(clock.instant(), limit);
        } else {
            due = journal.dueForCheckAt(clock.instant(), limit, led.scope()).stream()
                    .filter(row -> led.leads(row.account())).toList();
        }
        for (RowRecord row : due) {
            if (row.state() == RowState.UNKNOWN) {
                unknown.add(row);
            } else if (row.state() == RowState.PENDING && !waitsForWebhook(row)) {
                pendingBySku.computeIfAbsent(row.account() == null ? row.orderSku() : row.account() + "/" + row.orderSku(), k -> new ArrayList<>()).add(row);
            }
        }
        return new Round(unknown, new ArrayList<>(pendingBySku.values()));
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
