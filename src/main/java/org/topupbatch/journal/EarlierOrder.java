package org.topupbatch.journal;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * An order a new row would repeat (docs/batch-files-and-reports.md#rejected-rows, docs/money-guards.md): the row with the
 * same repeat key that is ordered and not failed (ACCEPTED, SENDING, PENDING, SUCCESS, UNKNOWN or
 * WAITING), of an earlier batch or of this file. {@code at} is when it was sent (epoch millis), or
 * when it was accepted for a row not sent yet ({@code sent} false); {@code fileName} is null for a
 * row of this file.
 *
 * <p>Only a {@link #succeeded() succeeded} order makes the new row a repeat at once; for any other
 * the new row waits ({@link RowState#WAITING}) for the order {@link #waitFor} names: the earlier
 * row's own ref_id, or, when the earlier row waits itself, the order it waits for (every row of one
 * customer's repeats waits for the same order, see {@link RepeatWaits}).
 */
public record EarlierOrder(String refId, long batchId, String fileName, long line, long at, boolean sent,
                           boolean thisFile, RowState state, String waitFor) {

    /** What a repeat's message tells the operator to do about it. */
    public static final String AGAIN = ", for the same product and customer; write yes in allow_repeat to order it again";
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    /** A row of the file being taken in, not yet sent: a later repeat of it waits for its outcome. */
    public static EarlierOrder inThisFile(String refId, long line) {
        return inThisFile(refId, line, null);
    }

    /** As {@link #inThisFile(String, long)}; {@code waitsFor} non-null when that row itself waits for an order. */
    public static EarlierOrder inThisFile(String refId, long line, String waitsFor) {
        return new EarlierOrder(refId, 0, null, line, 0, false, true,
                waitsFor == null ? RowState.ACCEPTED : RowState.WAITING, waitsFor == null ? refId : waitsFor);
    }

    /** The earlier order is delivered: a row repeating it is rejected now. */
    public boolean succeeded() {
        return state == RowState.SUCCESS;
    }

    /** Where the earlier row is: {@code ref_id X (line 4 of this file)} or {@code ref_id X of batch 3 (a.csv)}. */
    private String where() {
        if (thisFile && refId == null) {
            return "line " + line + " of this file"; // a plan of a very large file keeps no ref_id
        }
        return thisFile ? "ref_id " + refId + " (line " + line + " of this file)"
                : "ref_id " + refId + " of batch " + batchId + " (" + org.topupbatch.text.OneLine.of(fileName, 100) + ")";
    }

    /** The rejection of a row that repeats this delivered order. */
    public String rejection() {
        return "repeats " + where() + (sent && !thisFile ? ", sent " + WHEN.format(Instant.ofEpochMilli(at)) : "") + AGAIN;
    }

    /** The message of a row that waits for this order's outcome (the report's, while it waits). */
    public String waiting() {
        String which = waitFor == null || waitFor.equals(refId) ? "waits for " + where()
                : "waits for ref_id " + waitFor + ", as " + where() + " does";
        return which + ": the same product and customer, still in flight; ordered if that order fails, rejected if it succeeds";
    }
}
