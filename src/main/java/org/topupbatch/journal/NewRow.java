package org.topupbatch.journal;

import java.util.List;

/**
 * A data row as intake records it. {@code seq} is the row's place in the file (0-based),
 * {@code line} the physical line it starts on (header = 1). {@code state} is ACCEPTED or REJECTED;
 * {@code price} the price at validation time for accepted rows (null for rejected ones);
 * {@code message} the rejection reason. {@code extras} are the values of the input's extra
 * columns, in the order of the batch's extra headers.
 */
public record NewRow(int seq, long line, String refId, String productSku, String customerNo,
                     String customerNoZone, Long maxPrice, List<String> extras, RowState state,
                     Long price, String message) {
}
