package org.topupbatch.batch;

/**
 * The verdict on one row: accepted at {@code price} (the price list's price now), or rejected
 * for {@code reason}. {@code maxPrice} is the row's max_price when it is a valid number, else null.
 */
public record RowDecision(boolean accepted, Long price, Long maxPrice, String reason) {

    public static RowDecision accept(long price, Long maxPrice) {
        return new RowDecision(true, price, maxPrice, null);
    }

    public static RowDecision reject(String reason, Long maxPrice) {
        return new RowDecision(false, null, maxPrice, reason);
    }
}
