package org.topupbatch.reconcile;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.provider.HistoryQuery;
import org.topupbatch.provider.OrderHistoryPage;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.ProviderGateway;

/**
 * Every order the provider lists from a moment until now, read page by page through the gateway
 * (so within the rate budget the running service shares). The provider's history filters by date
 * without saying in which zone its days are, so the dates asked are widened by a day on each side
 * and the entries are kept by their {@code created_at} (UTC). Pages may shift while orders are being
 * placed; an order seen twice is kept once, the later sighting winning (and in the place of its first).
 */
public final class ProviderHistory {

    static final int PAGE_SIZE = 100;
    /** A guard against a provider whose pagination never ends. */
    static final int MAX_PAGES = 10_000;

    /** The orders, oldest first, and how many requests they took. */
    public record Listing(List<OrderListEntry> orders, int requests) {
    }

    private final ProviderGateway gateway;
    private final Clock clock;

    public ProviderHistory(ProviderGateway gateway, Clock clock) {
        this.gateway = gateway;
        this.clock = clock;
    }

    public Listing since(Instant from) {
        LocalDate first = LocalDate.ofInstant(from, ZoneOffset.UTC).minusDays(1);
        LocalDate last = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).plusDays(1);
        HistoryQuery query = HistoryQuery.all().dates(first, last).limit(PAGE_SIZE);
        Map<String, OrderListEntry> byRef = new LinkedHashMap<>();
        int page = 1;
        int requests = 0;
        while (true) {
            if (page > MAX_PAGES) {
                throw new IllegalStateException("the provider's history goes on past " + MAX_PAGES + " pages of "
                        + PAGE_SIZE + " orders; its pagination does not end");
            }
            OrderHistoryPage answer = gateway.orderHistory(query.page(page));
            requests++;
            for (OrderListEntry entry : answer.orders()) {
                // one without created_at is kept for matching ours; it belongs to no day
                if (entry.refId() != null && (entry.createdAt() == null || !entry.createdAt().isBefore(from))) {
                    byRef.put(entry.refId(), entry);
                }
            }
            int pages = answer.pagination() == null ? page : answer.pagination().totalPages();
            if (answer.orders().isEmpty() || page >= pages) {
                break;
            }
            page++;
        }
        List<OrderListEntry> orders = new ArrayList<>(byRef.values());
        // created_at may be whole seconds, so orders of one second tie: the provider's own listing order
        // tells them apart. Newest first (as the sandbox lists) is turned round before the stable sort.
        List<OrderListEntry> dated = orders.stream().filter(o -> o.createdAt() != null).toList();
        if (dated.size() > 1 && dated.get(0).createdAt().isAfter(dated.get(dated.size() - 1).createdAt())) {
            java.util.Collections.reverse(orders);
        }
        orders.sort(Comparator.comparing(OrderListEntry::createdAt, Comparator.nullsLast(Comparator.naturalOrder())));
        return new Listing(orders, requests);
    }
}
