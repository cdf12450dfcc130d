package org.topupbatch.order;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.HistoryQuery;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderHistoryPage;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.OrderRequest;
import org.topupbatch.provider.OrderStatus;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;

/**
 * Follows pending orders to their final status and reconciles orders whose outcome is unknown.
 * The journal changes only on the provider's own word (an answer to check-order, order history
 * or create-order), never on a guess; an order is never declared failed for lack of an answer.
 */
public class OrderTracker {

    private static final Logger LOG = LoggerFactory.getLogger(OrderTracker.class);
    /** Below this many due orders of one product, one check-order each is cheaper than history pages. */
    static final int HISTORY_GROUP_MIN = 3;
    private static final int PAGE_SIZE = 100;
    /** Clocks differ a little: an order sent just before midnight may carry the next day's date. */
    private static final Duration DATE_SLACK = Duration.ofMinutes(15);

    private final Journal journal;
    private final ProviderGateway gateway;
    private final OrderSubmitter submitter;
    private final Clock clock;
    private final boolean webhooksSettle;

    public OrderTracker(Journal journal, ProviderGateway gateway, OrderSubmitter submitter, Clock clock) {
        this(journal, gateway, submitter, clock, false);
    }

    /**
     * {@code webhooksSettle}: signed webhooks reach us and settle orders, so a fresh pending order
     * waits for its webhook ({@link CheckSchedule#WEBHOOK_WAIT}) before the provider is asked.
     */
    public OrderTracker(Journal journal, ProviderGateway gateway, OrderSubmitter submitter, Clock clock,
                        boolean webhooksSettle) {
        this.journal = journal;
        this.gateway = gateway;
        this.submitter = submitter;
        this.clock = clock;
        this.webhooksSettle = webhooksSettle;
    }

    /** Orders whose check is due now (the track route hands them to {@link #check}). */
    public List<RowRecord> dueRows(int limit) {
        return journal.dueForCheck(clock.instant(), limit);
    }

    /** Checks a list of due orders: unknown ones one by one, pending ones grouped by product. */
    public void check(List<RowRecord> due) {
        Map<String, List<RowRecord>> pendingBySku = new LinkedHashMap<>();
        for (RowRecord row : due) {
            try {
                if (row.state() == RowState.UNKNOWN) {
                    reconcile(row);
                } else if (row.state() == RowState.PENDING && !waitsForWebhook(row)) {
                    pendingBySku.computeIfAbsent(row.productSku(), k -> new ArrayList<>()).add(row);
                }
            } catch (ProviderException e) {
                later(row, e);
            }
        }
        for (List<RowRecord> group : pendingBySku.values()) {
            try {
                if (gateway.checkOrderSupported() && group.size() < HISTORY_GROUP_MIN) {
                    for (RowRecord row : group) {
                        checkOne(row);
                    }
                } else {
                    checkByHistory(group);
                }
            } catch (ProviderException e) {
                group.forEach(row -> later(row, e));
            }
        }
    }

    private void checkOne(RowRecord row) {
        Optional<Order> order;
        try {
            order = gateway.checkOrder(row.refId());
            org.topupbatch.app.CrashPoints.pass(org.topupbatch.app.CrashPoints.TRACK_AFTER_ANSWER);
        } catch (ProviderException e) {
            if ("ORDER_NOT_FOUND".equals(e.code())) {
                // The provider said pending before; a missing order is its confusion, not a failure.
                LOG.warn("Provider does not find pending order {}; will look again", row.refId());
                again(row);
                return;
            }
            throw e;
        }
        if (order.isEmpty()) {
            checkByHistory(List.of(row)); // the provider has no check-order after all
            return;
        }
        apply(row, order.get());
    }

    /** Looks pending orders up in the history, narrowed by product, date and final status. */
    private void checkByHistory(List<RowRecord> group) {
        Map<String, RowRecord> wanted = new HashMap<>();
        group.forEach(r -> wanted.put(r.refId(), r));
        LocalDate[] dates = dateRange(group);
        for (OrderStatus status : new OrderStatus[] {OrderStatus.SUCCESS, OrderStatus.FAILED}) {
            if (wanted.isEmpty()) {
                break;
            }
            HistoryQuery q = HistoryQuery.all().status(status).dates(dates[0], dates[1])
                    .productSku(group.get(0).productSku()).limit(PAGE_SIZE);
            searchHistory(q, wanted);
        }
        wanted.values().forEach(this::again);
    }

    /** Pages through history, applying every entry that answers for a wanted row; removes found ones. */
    private void searchHistory(HistoryQuery query, Map<String, RowRecord> wanted) {
        int page = 1;
        while (!wanted.isEmpty()) {
            OrderHistoryPage answer = gateway.orderHistory(query.page(page));
            for (OrderListEntry entry : answer.orders()) {
                RowRecord row = wanted.get(entry.refId());
                if (row != null && entry.status() != null) {
                    wanted.remove(entry.refId());
                    applyEntry(row, entry);
                }
            }
            int pages = answer.pagination() == null ? page : answer.pagination().totalPages();
            if (answer.orders().isEmpty() || page >= pages) {
                return;
            }
            page++;
        }
    }

    /**
     * An order whose outcome is unknown: re-send the same ref_id, which is always safe (the
     * provider answers DUPLICATE_REF_ID when it exists), then look it up.
     */
    void reconcile(RowRecord row) {
        if (gateway.checkOrderSupported()) {
            try {
                Optional<Order> found = gateway.checkOrder(row.refId());
                if (found.isPresent()) {
                    adopt(row, found.get());
                    return;
                }
            } catch (ProviderException e) {
                if (!"ORDER_NOT_FOUND".equals(e.code())) {
                    throw e;
                }
                // Not there: the earlier request never made an order. Sending it now is safe.
            }
        }
        try {
            Order order = gateway.createOrder(new OrderRequest(row.refId(), row.productSku(), row.customerNo(),
                    row.customerNoZone()));
            LOG.info("Order {} re-sent under the same ref_id: {}", row.refId(), order.status());
            submitter.record(row, order);
        } catch (ProviderException e) {
            if (e.outcomeUnknown() || ProviderException.CONNECTION_FAILED.equals(e.code())) {
                throw e;
            }
            if ("DUPLICATE_REF_ID".equals(e.code())) {
                findInHistory(row, null);
            } else if (ProviderGateway.stopsSubmission(e) && !"INSUFFICIENT_BALANCE".equals(e.code())) {
                throw e; // credentials: nothing can be learnt now; try again later
            } else {
                // Refused now: if the first request had made the order, it would be in the history.
                findInHistory(row, OrderSubmitter.refusal(e));
            }
        }
    }

    /** Finds one order in the history (any status); when it is not there, {@code ifAbsent} refuses it. */
    private void findInHistory(RowRecord row, String ifAbsent) {
        LocalDate[] dates = dateRange(List.of(row));
        Map<String, RowRecord> wanted = new HashMap<>(Map.of(row.refId(), row));
        searchHistory(HistoryQuery.all().dates(dates[0], dates[1]).productSku(row.productSku()).limit(PAGE_SIZE), wanted);
        if (wanted.isEmpty()) {
            return;
        }
        if (ifAbsent != null) {
            journal.recordOutcome(row.id(), RowState.REFUSED, null, null, ifAbsent);
        } else {
            // DUPLICATE_REF_ID yet not in our product's history: another order of the provider holds it.
            searchHistory(HistoryQuery.all().dates(dates[0], dates[1]).limit(PAGE_SIZE), wanted);
            if (!wanted.isEmpty()) {
                again(row); // history may lag behind create-order: look again later
            }
        }
    }

    private void adopt(RowRecord row, Order order) {
        if (!OrderOutcomes.matches(row, order.refId(), order.productSku(), order.customerNo())) {
            journal.recordOutcome(row.id(), RowState.REFUSED, null, null,
                    "refused: the provider holds another order under this ref_id (" + order.productSku() + ")");
            return;
        }
        apply(row, order);
    }

    private void apply(RowRecord row, Order order) {
        if (order.status() == OrderStatus.PENDING || order.status() == null) {
            if (row.state() == RowState.UNKNOWN) {
                journal.recordOutcome(row.id(), RowState.PENDING, null, order.price(),
                        OrderOutcomes.messageOr(order.message(), "pending"));
            }
            again(row);
            return;
        }
        journal.recordOutcome(row.id(), OrderOutcomes.stateOf(order.status()), order.serialNumber(), order.price(),
                OrderOutcomes.messageOr(order.message(), order.status().wire()));
    }

    private void applyEntry(RowRecord row, OrderListEntry entry) {
        if (!OrderOutcomes.matches(row, entry.refId(), entry.productSku(), entry.customerNo())) {
            journal.recordOutcome(row.id(), RowState.REFUSED, null, null,
                    "refused: the provider holds another order under this ref_id (" + entry.productSku() + ")");
            return;
        }
        if (entry.status() == OrderStatus.PENDING) {
            if (row.state() == RowState.UNKNOWN) {
                journal.recordOutcome(row.id(), RowState.PENDING, null, entry.price(), "pending");
            }
            again(row);
            return;
        }
        journal.recordOutcome(row.id(), OrderOutcomes.stateOf(entry.status()), entry.serialNumber(), entry.price(),
                entry.status() == OrderStatus.SUCCESS ? "success" : "failed");
    }

    private void again(RowRecord row) {
        int checks = row.checks() + 1;
        journal.scheduleCheck(row.id(), CheckSchedule.next(clock.instant(), checks, row.state() == RowState.UNKNOWN,
                webhooksSettle), checks);
    }

    /**
     * A pending order never checked, sent less than {@link CheckSchedule#WEBHOOK_WAIT} ago, while
     * signed webhooks settle orders: its webhook will most likely settle it, so its first look-up
     * is put off until then. (A webhook hint counts as a check and so ends the wait.)
     */
    private boolean waitsForWebhook(RowRecord row) {
        if (!webhooksSettle || row.checks() > 0 || row.sentAt() == null) {
            return false;
        }
        Instant due = row.sentAt().plus(CheckSchedule.WEBHOOK_WAIT);
        if (!due.isAfter(clock.instant())) {
            return false;
        }
        journal.scheduleCheck(row.id(), due, 0);
        return true;
    }

    private void later(RowRecord row, ProviderException e) {
        if (!ProviderException.INTERRUPTED.equals(e.code())) { // the run is stopping: nothing to report
            LOG.warn("Could not check order {} now: {}", row.refId(), e.getMessage());
        }
        again(row);
    }

    private LocalDate[] dateRange(List<RowRecord> rows) {
        Instant min = null;
        Instant max = null;
        for (RowRecord r : rows) {
            Instant t = r.sentAt() != null ? r.sentAt() : r.createdAt() != null ? r.createdAt() : clock.instant();
            min = min == null || t.isBefore(min) ? t : min;
            max = max == null || t.isAfter(max) ? t : max;
        }
        // Up to the slack past the last send, but not into a day that has not begun yet.
        Instant end = max.plus(DATE_SLACK);
        Instant now = clock.instant();
        if (end.isAfter(now) && now.isAfter(max)) {
            end = now;
        }
        return new LocalDate[] {
            LocalDate.ofInstant(min.minus(DATE_SLACK), ZoneOffset.UTC),
            LocalDate.ofInstant(end, ZoneOffset.UTC)
        };
    }
}
