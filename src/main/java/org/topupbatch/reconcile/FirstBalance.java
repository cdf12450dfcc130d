package org.topupbatch.reconcile;

import java.time.Instant;

/**
 * The balance before the day's first order, as a reconciliation found it (docs/reconcile.md), and
 * where from: the provider's own {@code balance_before} of that order (check-order), or a balance the
 * product read that day with the orders listed before that reading added back. {@code balance} is null
 * only when neither is there; {@code unknownWhy} then says why in words.
 *
 * @param source {@code check_order}, {@code balance_reading}, or null when unknown
 * @param readAt the reading's moment (the answer's), for {@code balance_reading}
 */
public record FirstBalance(Long balance, String source, Instant readAt, String unknownWhy) {

    public static final String CHECK_ORDER = "check_order";
    public static final String BALANCE_READING = "balance_reading";

    static FirstBalance fromCheckOrder(long balance) {
        return new FirstBalance(balance, CHECK_ORDER, null, null);
    }

    static FirstBalance fromReading(long balance, Instant readAt) {
        return new FirstBalance(balance, BALANCE_READING, readAt, null);
    }

    static FirstBalance unknown(String why) {
        return new FirstBalance(null, null, null, why);
    }

    public boolean known() {
        return balance != null;
    }
}
