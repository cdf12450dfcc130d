package org.topupbatch.provider;

import java.time.LocalDate;

/**
 * Filters and paging of order history (interface 4.3). Null fields are left out of the request,
 * so the provider applies its defaults (page 1, limit 20, all statuses).
 */
public record HistoryQuery(Integer page, Integer limit, OrderStatus status, LocalDate startDate,
                           LocalDate endDate, String productSku) {

    public static HistoryQuery all() {
        return new HistoryQuery(null, null, null, null, null, null);
    }

    public HistoryQuery page(int page) {
        return new HistoryQuery(page, limit, status, startDate, endDate, productSku);
    }

    public HistoryQuery limit(int limit) {
        return new HistoryQuery(page, limit, status, startDate, endDate, productSku);
    }

    public HistoryQuery status(OrderStatus status) {
        return new HistoryQuery(page, limit, status, startDate, endDate, productSku);
    }

    public HistoryQuery dates(LocalDate start, LocalDate end) {
        return new HistoryQuery(page, limit, status, start, end, productSku);
    }

    public HistoryQuery productSku(String sku) {
        return new HistoryQuery(page, limit, status, startDate, endDate, sku);
    }
}
