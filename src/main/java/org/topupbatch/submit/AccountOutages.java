package org.topupbatch.submit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.ProviderException;

/**
 * Several accounts (README "Several accounts"): what an account has just refused for every row
 * alike, a product it cannot sell now, an order its balance cannot pay, or no connection at all, so that the queued rows
 * concerned go to their next account at once instead of each being refused there first (a request
 * spent, and the account's budget, for nothing). After {@link #RECHECK} the next row is sent there
 * again: if the account takes it, it sells again. (An order taken there meanwhile proves nothing: it
 * may have been sent before the refusal.)
 */
final class AccountOutages {

    /** How long an account's refusal stands before a row is tried there again. */
    static final Duration RECHECK = Duration.ofMinutes(1);
    private static final String ANY_PRODUCT = "";

    private final Clock clock;
    private final Map<String, Instant> until = new ConcurrentHashMap<>();
    /** Why an account takes no row now, for its rows' messages. */
    private final Map<String, String> reasons = new ConcurrentHashMap<>();

    AccountOutages(Clock clock) {
        this.clock = clock;
    }

    /** The row's account refused it: remembers what the refusal says of the account's other rows. */
    void refused(RowRecord row, ProviderException e) {
        if (row.account() == null) {
            return;
        }
        Instant end = clock.instant().plus(RECHECK);
        if (e.meansProductUnavailable()) {
            until.put(key(row.account(), row.orderSku()), end);
        } else if (e.is(org.topupbatch.provider.ProviderError.INSUFFICIENT_BALANCE)) {
            until.put(key(row.account(), ANY_PRODUCT), end);
            reasons.put(row.account(), "reported insufficient balance");
        } else if (e.is(org.topupbatch.provider.ProviderError.CONNECTION_FAILED)) {
            until.put(key(row.account(), ANY_PRODUCT), end);
            reasons.put(row.account(), "could not be reached");
        }
    }

    /** The row's account's price list cannot be read: nothing is sent there until it can (see {@link PriceGuard}). */
    void pricesUnreadable(RowRecord row) {
        if (row.account() != null) {
            until.put(key(row.account(), ANY_PRODUCT), clock.instant().plus(RECHECK));
            reasons.put(row.account(), "has a price list that cannot be read");
        }
    }

    /**
     * Whether the account said no for a reason that ends with money or stock (unavailable, balance),
     * not one of reach (no connection, no price list), where rows rather wait at their last account.
     */
    boolean refusedOutright(RowRecord row) {
        String why = refusing(row);
        return why != null && !why.contains("could not be reached") && !why.contains("cannot be read");
    }

    /** Why the row's account is known not to take it now, or null. */
    String refusing(RowRecord row) {
        if (row.account() == null) {
            return null;
        }
        Instant now = clock.instant();
        if (now.isBefore(until.getOrDefault(key(row.account(), row.orderSku()), Instant.MIN))) {
            return row.account() + " refused " + row.orderSku() + " as unavailable moments ago";
        }
        if (now.isBefore(until.getOrDefault(key(row.account(), ANY_PRODUCT), Instant.MIN))) {
            return row.account() + " " + reasons.getOrDefault(row.account(), "refused every row") + " moments ago";
        }
        return null;
    }

    private static String key(String account, String sku) {
        return account + "\n" + sku;
    }
}
