package org.topupbatch.reconcile;

import java.time.Instant;
import java.util.Map;

/**
 * The figures of a reconciliation, as written to {@code reconcile-DAY.summary.json} (README,
 * "Reconcile with the provider"). Amounts in IDR. {@code balanceFirst}, and with it
 * {@code unexplained}, is null when no order was placed on the account from the day's start until
 * the balance was read, or the provider cannot be asked for its first order's balance. {@code inFlight}:
 * orders of ours the provider does not list yet, sent moments before the balance was read (a minute
 * for one not confirmed by an answer, 5 s otherwise); neither matched nor exceptions, they are the
 * next reconciliation's.
 */
public record ReconcileSummary(String day, String zone, long providerOrders, long journalOrders, long matched,
                               Map<String, Long> exceptions, long charged, long refunded, long foreignCharged,
                               Long balanceFirst, long balanceNow, Long unexplained, int corrected, int settled,
                               int inFlight, int requests, Instant ranAt) {

    public long exceptionCount() {
        return exceptions.values().stream().mapToLong(Long::longValue).sum();
    }
}
