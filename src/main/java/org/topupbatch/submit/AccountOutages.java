package org.topupbatch.submit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.ProviderException;

/**
 * Several accounts (docs/accounts-and-dialects.md#several-accounts): what an account has just refused for every row
 * alike, a product it cannot sell now, an order its balance cannot pay, or no connection at all, so that the queued rows
 * concerned go to their next account at once instead of each being refused there first (a request
 * spent, and the account's budget, for nothing). After {@link #RECHECK} the next row is sent there
 * again: if the account takes it, it sells again. (An order taken there meanwhile proves nothing: it
 * may have been sent before the refusal.)
 */
final class AccountOutages {

    /** How long an account's refusal stands before a row is tried there again. */
    static final Duration RECHECK = Duration.ofMinutes(1);

    /** Why an account takes no row now; {@code outright}: money or stock, not reach. */
    private enum Why {
        UNAVAILABLE("refused %s as unavailable", true),
        BALANCE("reported insufficient balance", true),
        UNREACHABLE("could not be reached", false),
        NO_PRICE_LIST("has a price list that cannot be read", false);

        final String text;
        final boolean outright;

        Why(String text, boolean outright) {
            this.text = text;
            this.outright = outright;
        }
    }

    private record Outage(Why why, Instant until) {
    }

    private final Clock clock;
    /** By account and SKU (a product's outage), and by account alone (the whole account's). */
    private final Map<String, Outage> outages = new ConcurrentHashMap<>();

    AccountOutages(Clock clock) {
        this.clock = clock;
    }

    /** The row's account refused it: remembers what the refusal says of the account's other rows. */
    void refused(RowRecord row, ProviderException e) {
        if (e.meansProductUnavailable()) {
            put(row, row.orderSku(), Why.UNAVAILABLE);
        } else if (e.is(org.topupbatch.provider.ProviderError.INSUFFICIENT_BALANCE)) {
            put(row, null, Why.BALANCE);
        } else if (e.is(org.topupbatch.provider.ProviderError.CONNECTION_FAILED)) {
            put(row, null, Why.UNREACHABLE);
        }
    }

    /** The row's account's price list cannot be read: nothing is sent there until it can (see {@link PriceGuard}). */
    void pricesUnreadable(RowRecord row) {
        put(row, null, Why.NO_PRICE_LIST);
    }

    /**
     * Whether the account said no for a reason that ends with money or stock (unavailable, balance),
     * not one of reach (no connection, no price list), where rows rather wait at their last account.
     */
    boolean refusedOutright(RowRecord row) {
        Outage outage = current(row);
        return outage != null && outage.why().outright;
    }

    /** Why the row's account is known not to take it now, or null. */
    String refusing(RowRecord row) {
        Outage outage = current(row);
        return outage == null ? null
                : row.account() + " " + String.format(outage.why().text, row.orderSku()) + " moments ago";
    }

    private void put(RowRecord row, String sku, Why why) {
        if (row.account() != null) {
            outages.put(key(row.account(), sku), new Outage(why, clock.instant().plus(RECHECK)));
        }
    }

    /** The product's outage at the row's account, else the whole account's, while it stands. */
    private Outage current(RowRecord row) {
        if (row.account() == null) {
            return null;
        }
        Instant now = clock.instant();
        for (String key : new String[] {key(row.account(), row.orderSku()), key(row.account(), null)}) {
            Outage outage = outages.get(key);
            if (outage != null && now.isBefore(outage.until())) {
                return outage;
            }
        }
        return null;
    }

    private static String key(String account, String sku) {
        return account + "\n" + (sku == null ? "" : sku);
    }
}
