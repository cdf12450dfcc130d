package org.topupbatch.journal;

import java.util.List;

/**
 * A data row as intake records it. {@code seq} is the row's place in the file (0-based),
 * {@code line} the physical line it starts on (header = 1). {@code state} is ACCEPTED or REJECTED;
 * {@code price} the price at validation time for accepted rows (null for rejected ones);
 * {@code message} the rejection reason. {@code extras} are the values of the input's extra
 * columns, in the order of the batch's extra headers. {@code repeatKey} says whom an accepted row
 * orders for (product, customer in one form, zone), for the repeat guard; null for rejected rows.
 * {@code route}: with several accounts, where the row may be ordered, best first; null with one account.
 * {@code state} may also be WAITING: the row repeats an order still in flight, whose ref_id
 * {@code waitsFor} names (null for every other row), and is ordered only if that order fails.
 * {@code notifyTo}: where the customer gets the voucher on success (docs/customer-messages.md), a
 * {@code +62…} number or an e-mail address; null for none.
 */
public record NewRow(int seq, long line, String refId, String productSku, String customerNo,
                     String customerNoZone, Long maxPrice, List<String> extras, RowState state,
                     Long price, String message, String repeatKey, RowRoute route, String waitsFor, String notifyTo) {

    public NewRow(int seq, long line, String refId, String productSku, String customerNo, String customerNoZone,
                  Long maxPrice, List<String> extras, RowState state, Long price, String message, String repeatKey,
                  RowRoute route, String waitsFor) {
        this(seq, line, refId, productSku, customerNo, customerNoZone, maxPrice, extras, state, price, message, repeatKey,
                route, waitsFor, null);
    }

    public NewRow(int seq, long line, String refId, String productSku, String customerNo, String customerNoZone,
                  Long maxPrice, List<String> extras, RowState state, Long price, String message, String repeatKey,
                  RowRoute route) {
        this(seq, line, refId, productSku, customerNo, customerNoZone, maxPrice, extras, state, price, message, repeatKey,
                route, null);
    }

    public NewRow(int seq, long line, String refId, String productSku, String customerNo, String customerNoZone,
                  Long maxPrice, List<String> extras, RowState state, Long price, String message, String repeatKey) {
        this(seq, line, refId, productSku, customerNo, customerNoZone, maxPrice, extras, state, price, message, repeatKey, null);
    }

    public NewRow(int seq, long line, String refId, String productSku, String customerNo, String customerNoZone,
                  Long maxPrice, List<String> extras, RowState state, Long price, String message) {
        this(seq, line, refId, productSku, customerNo, customerNoZone, maxPrice, extras, state, price, message, null);
    }

    /** About how many characters the row holds: what a writer counts to keep its buffers bounded. */
    public long chars() {
        long n = length(refId) + length(productSku) + length(customerNo) + length(customerNoZone) + length(message) + length(notifyTo);
        if (extras != null) {
            for (String extra : extras) {
                n += length(extra);
            }
        }
        return n;
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }
}
