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
    /** The rate budget's reservation a caller holds; the provider route then reserves no other. */
    public static final String TICKET = "TopupProviderTicket";

    private ProviderExchange() {
    }
}
