package org.topupbatch.provider;

import java.time.Instant;

/** An order-history entry (interface 2.3). */
public record OrderListEntry(String refId, String productSku, String productName, String customerNo,
                             OrderStatus status, String serialNumber, Long price, Instant createdAt) {
}
