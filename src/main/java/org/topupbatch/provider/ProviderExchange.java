package org.topupbatch.provider;

/**
 * Names of what one provider call carries through the routes. Exchange properties, never
 * headers: the http producer would send headers to the provider.
 */
public final class ProviderExchange {

    /** The operation being called (create-order, check-balance, ...). */
    public static final String OPERATION = "TopupProviderOperation";
    /** The ref_id the call is about, for reading an order answer. */
    public static final String REF_ID = "TopupProviderRefId";
    /** The rate budget's reservation of this call, from the throttle until it is completed. */
    public static final String TICKET = "TopupProviderTicket";
    /**
     * An endpoint the provider route calls after the throttle, right before the request leaves
     * (the submit route: the row ACCEPTED -> SENDING, committed). Optional.
     */
    public static final String BEFORE_SENDING = "TopupBeforeSending";
    /** Set to false by the {@link #BEFORE_SENDING} step when the request must not leave after all. */
    public static final String GO_AHEAD = "TopupProviderGoAhead";
    /**
     * With several accounts, the name of the account the call is for: its address, credentials,
     * dialect and rate budget. Absent with a single account.
     */
    public static final String ACCOUNT = "TopupAccount";
    /**
     * {@link System#nanoTime()} when the throttle let the request go: with the answer's time it brackets
     * the moment a balance answer stands for (see {@link BalanceSeen}).
     */
    public static final String LEAVES_NANOS = "TopupProviderLeavesNanos";

    private ProviderExchange() {
    }
}
