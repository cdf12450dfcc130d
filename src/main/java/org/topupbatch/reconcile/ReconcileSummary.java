package org.topupbatch.reconcile;

import java.time.Instant;
import java.util.Map;

/**
 * The figures of a reconciliation, as written to {@code reconcile-DAY.summary.json} (docs/reconcile.md#reconcile-with-the-provider). Amounts in IDR. {@code balanceFirst}, and with it
 * {@code unexplained}, is null when no order was placed on the account from the day's start until
 * the balance was read, or the provider cannot be asked for its first order's balance. {@code inFlight}:
 * orders of ours the provider does not list yet, sent moments before the balance was read (a minute
 * for one not confirmed by an answer, 5 s otherwise); neither matched nor exceptions, they are the
 * next reconciliation's. {@code first}: where {@code balanceFirst} came from, or why it is unknown.
 * {@code partial}: the day was not over when it was reconciled (its later orders are not in it).
 */
public record ReconcileSummary(String day, String zone, long providerOrders, long journalOrders, long matched,
                               Map<String, Long> exceptions, long charged, long refunded, long foreignCharged,
                               Long balanceFirst, long balanceNow, Long unexplained, int corrected, int settled,
                               int inFlight, int requests, Instant ranAt, FirstBalance first, boolean partial) {

    public long exceptionCount() {
        return exceptions.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The balance's part in words, as the reconcile command prints it. */
    public String balanceWords() {
        String from = FirstBalance.CHECK_ORDER.equals(first.source()) ? " (the provider's balance_before of that order)"
                : first.readAt() != null ? " (from the balance read at " + first.readAt() + ")" : "";
        return (balanceFirst == null ? "unknown" : org.topupbatch.text.Rupiah.format(balanceFirst))
                + " before the day's first order" + from + ", " + org.topupbatch.text.Rupiah.format(balanceNow)
                + " now; unexplained " + (unexplained == null ? "unknown: " + first.unknownWhy()
                : org.topupbatch.text.Rupiah.format(unexplained));
    }

    /** The console's line for a day not over, or null. */
    public static String partialWords(String day, boolean partial) {
        return partial ? "PARTIAL: " + day + " is not over yet; orders after now are not in this reconciliation,"
                + " run it again tomorrow for the whole day" : null;
    }
}
