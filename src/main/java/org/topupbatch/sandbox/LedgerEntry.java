package org.topupbatch.sandbox;

import java.time.Instant;

/**
 * One order as the sandbox recorded it. {@code status} is the lower-case wire word; {@code balanceBefore}
 * and {@code balanceAfter} are as at creation (for an order failed at creation both are equal);
 * {@code refunded} is true once a failed order's price went back to the balance.
 * {@code settledAt} is null while pending; {@code serialNumber} null unless success.
 */
public record LedgerEntry(String refId, String productSku, String customerNo, String customerNoZone, String status,
                          String serialNumber, long price, long balanceBefore, long balanceAfter, Instant createdAt,
                          Instant settledAt, boolean refunded) {
}
