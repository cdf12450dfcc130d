package org.topupbatch.provider;

/** No price list young enough to validate against: the provider could not be asked, or failed. */
public class PriceListUnavailableException extends RuntimeException {
    public PriceListUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
