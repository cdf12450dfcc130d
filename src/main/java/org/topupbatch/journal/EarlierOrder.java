package org.topupbatch.journal;

/**
 * An order a new row would repeat (README "Rejected rows"): the row with the same repeat key that
 * is ordered and not failed (ACCEPTED, SENDING, PENDING, SUCCESS or UNKNOWN), of an earlier batch
 * or of this file. {@code at} is when it was sent (epoch millis), or when it was accepted for a row
 * not sent yet ({@code sent} false); {@code fileName} is null for a row of this file.
 */
public record EarlierOrder(String refId, long batchId, String fileName, long line, long at, boolean sent,
                           boolean thisFile) {

    /** A row of the file being taken in (not yet sent, so its time says nothing). */
    public static EarlierOrder inThisFile(String refId, long line) {
        return new EarlierOrder(refId, 0, null, line, 0, false, true);
    }
}
