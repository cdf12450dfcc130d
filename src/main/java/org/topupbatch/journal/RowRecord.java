package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;

/**
 * A row as the journal holds it. {@code price} is the provider's price once an order exists
 * (the validation-time price before that); {@code checks} counts status look-ups so far and
 * {@code nextCheckAt} says when the next one is due (null when none is planned).
 *
 * <p>With several accounts, {@code route} says where the row may be ordered and {@code attempt} at
 * which of those places it is now: its order there carries {@link #orderRefId()} and
 * {@link #orderSku()}, which with one account are the row's own ref_id and product_sku.
 */
public record RowRecord(long id, long batchId, int seq, long line, String refId, String productSku,
                        String customerNo, String customerNoZone, Long maxPrice, List<String> extras,
                        RowState state, String serialNumber, Long price, String message,
                        Instant createdAt, Instant updatedAt, Instant sentAt, int checks,
                        Instant nextCheckAt, RowRoute route, int attempt) {

    /** A row of a single account's run. */
    public RowRecord(long id, long batchId, int seq, long line, String refId, String productSku,
                     String customerNo, String customerNoZone, Long maxPrice, List<String> extras,
                     RowState state, String serialNumber, Long price, String message,
                     Instant createdAt, Instant updatedAt, Instant sentAt, int checks, Instant nextCheckAt) {
        this(id, batchId, seq, line, refId, productSku, customerNo, customerNoZone, maxPrice, extras, state,
                serialNumber, price, message, createdAt, updatedAt, sentAt, checks, nextCheckAt, null, 1);
    }

    /** The account the row is at now, or null with a single account. */
    public String account() {
        return route == null ? null : route.at(attempt).account();
    }

    /** The ref_id its order carries at its account: its own at the first, ref_id-Fn at the n-th. */
    public String orderRefId() {
        return attempt <= 1 || route == null ? refId : org.topupbatch.provider.FallbackRefIds.of(refId, attempt);
    }

    /** The product's SKU at the row's account (the product map's), its own product_sku with one account. */
    public String orderSku() {
        return route == null ? productSku : route.at(attempt).sku();
    }

    /** Whether another account can still take the row, should its account prove it took nothing. */
    public boolean hasNextAccount() {
        return route != null && attempt < route.size();
    }
}
