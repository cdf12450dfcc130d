package org.topupbatch.track;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.HistoryQuery;
import org.topupbatch.provider.OrderHistoryPage;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.OrderStatus;
import org.topupbatch.provider.ProviderGateway;

/**
 * Finds tracked orders in the provider's order history, narrowed by product, the dates they were
 * sent and, for pending ones, by status (the newest page in any status, then those still pending,
 * then success and failed): a page of 100 answers for many orders at once.
 */
public class OrderHistorySearch {

    private static final int PAGE_SIZE = 100;
    /** Clocks differ a little: an order sent just before midnight may carry the next day's date. */
    private static final Duration DATE_SLACK = Duration.ofMinutes(15);

    private final ProviderGateway gateway;
    private final TrackedOrders tracked;
    private final Clock clock;

    public OrderHistorySearch(ProviderGateway gateway, TrackedOrders tracked, Clock clock) {
        this.gateway = gateway;
        this.tracked = tracked;
        this.clock = clock;
    }

    private static final OrderStatus[] FINAL_STATUSES = {OrderStatus.SUCCESS, OrderStatus.FAILED};

    /**
     * Pending orders of one product: those found final are settled, the others looked at again later.
     * First the product's newest page in any status: the orders due are mostly the ones sent in the
     * last seconds, so that one page answers for all of them, the pending and the final alike. The
     * rest (older orders looked at again, backing off) among the orders still pending: they are few
     * (those in flight), so one page answers for all of them, and one found there is looked at again
     * later without paging through the day's final orders, which grow by the thousand. Only the
     * orders not found so far are searched among the final ones.
     */
    void findFinal(List<RowRecord> sameProduct) {
        Map<String, RowRecord> wanted = new HashMap<>();
        sameProduct.forEach(r -> wanted.put(r.orderRefId(), r));
        LocalDate[] dates = dateRange(sameProduct);
        HistoryQuery ofProduct = HistoryQuery.all().dates(dates[0], dates[1])
                .productSku(sameProduct.get(0).orderSku()).limit(PAGE_SIZE);
        search(ofProduct, wanted, 1);
        search(ofProduct.status(OrderStatus.PENDING), wanted);
        for (OrderStatus status : FINAL_STATUSES) {
            search(ofProduct.status(status), wanted);
        }
        wanted.values().forEach(tracked::lookAgain);
    }

    /**
     * One order in any status. When it is not there, {@code ifAbsent} (if given) refuses it;
     * without one, the provider said the ref_id exists (DUPLICATE_REF_ID), so every product is
     * searched, and then it is looked for again later: history may lag behind create-order.
     */
    void find(RowRecord row, String ifAbsent) {
        LocalDate[] dates = dateRange(List.of(row));
        Map<String, RowRecord> wanted = new HashMap<>(Map.of(row.orderRefId(), row));
        search(HistoryQuery.all().dates(dates[0], dates[1]).productSku(row.orderSku()).limit(PAGE_SIZE), wanted);
        if (wanted.isEmpty()) {
            return;
        }
        if (ifAbsent != null) {
            tracked.refuse(row, ifAbsent);
            return;
        }
        // DUPLICATE_REF_ID yet not in our product's history: another order of the provider holds it.
        search(HistoryQuery.all().dates(dates[0], dates[1]).limit(PAGE_SIZE), wanted);
        if (!wanted.isEmpty()) {
            tracked.lookAgain(row);
        }
    }

    /** Pages through history, settling every entry that answers for a wanted row; removes found ones. */
    private void search(HistoryQuery query, Map<String, RowRecord> wanted) {
        search(query, wanted, Integer.MAX_VALUE);
    }

    /** As {@link #search(HistoryQuery, Map)}, reading at most {@code atMost} pages. */
    private void search(HistoryQuery query, Map<String, RowRecord> wanted, int atMost) {
        int page = 1;
        while (!wanted.isEmpty() && page <= atMost) {
            OrderHistoryPage answer = gateway.orderHistory(query.page(page));
            for (OrderListEntry entry : answer.orders()) {
                RowRecord row = wanted.get(entry.refId());
                if (row != null && entry.status() != null) {
                    wanted.remove(entry.refId());
                    tracked.settle(row, entry);
                }
            }
            int pages = answer.pagination() == null ? page : answer.pagination().totalPages();
            if (answer.orders().isEmpty() || page >= pages) {
                return;
            }
            page++;
        }
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
