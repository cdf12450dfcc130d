package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;

/**
 * A row as the journal holds it. {@code price} is the provider's price once an order exists
 * (the validation-time price before that); {@code checks} counts status look-ups so far and
 * {@code nextCheckAt} says when the next one is due (null when none is planned).
 */
public record RowRecord(long id, long batchId, int seq, long line, String refId, String productSku,
                        String customerNo, String customerNoZone, Long maxPrice, List<String> extras,
                        RowState state, String serialNumber, Long price, String message,
                        Instant createdAt, Instant updatedAt, Instant sentAt, int checks,
                        Instant nextCheckAt) {
}
