package org.topupbatch.provider;

import java.util.List;

/** One page of order history (interface 4.3). */
public record OrderHistoryPage(List<OrderListEntry> orders, Pagination pagination) {
}
