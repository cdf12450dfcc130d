package org.topupbatch.intake;

import java.util.List;

/**
 * One data row of a batch file as read, before validation. {@code seq} is its place among the
 * data rows (0-based), {@code line} the physical line it starts on (the header is line 1 when the
 * file starts with it). The known fields are trimmed and never null (empty when absent);
 * {@code extras} are the values of the other columns exactly as written, one per extra header.
 * {@code error} is set when the row could not be read (broken quoting, too many fields): such a
 * row is rejected with that reason, and its fields hold whatever could be read.
 * {@code notifyTo} is the optional notify_to column (docs/customer-messages.md), trimmed, empty when absent.
 */
public record BatchRow(int seq, long line, String refId, String productSku, String customerNo,
                       String customerNoZone, String maxPrice, List<String> extras, String error, String notifyTo) {

    /** A row of a file without a notify_to column. */
    public BatchRow(int seq, long line, String refId, String productSku, String customerNo,
                    String customerNoZone, String maxPrice, List<String> extras, String error) {
        this(seq, line, refId, productSku, customerNo, customerNoZone, maxPrice, extras, error, "");
    }

    public boolean malformed() {
        return error != null;
    }

    /** About how many characters the row holds (what a look-ahead counts to stay bounded). */
    long chars() {
        long n = refId.length() + productSku.length() + customerNo.length() + customerNoZone.length() + maxPrice.length()
                + notifyTo.length();
        for (String extra : extras) {
            n += extra.length();
        }
        return n;
    }
}
