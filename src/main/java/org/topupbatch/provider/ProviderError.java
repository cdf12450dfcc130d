package org.topupbatch.provider;

import java.util.Locale;
import java.util.Optional;

/**
 * The error codes the product acts on: the provider's own (as this project understands the dialect,
 * see docs/provider.md) and the ones we give to a request that got no usable answer. A provider
 * may send codes not listed here; they stay plain strings on {@link ProviderException#code()} and
 * mean "this one order was refused".
 */
public enum ProviderError {

    // ---- the provider's codes
    /** An order with this ref_id exists already (ours from an earlier attempt, or someone else's). */
    DUPLICATE_REF_ID,
    ORDER_NOT_FOUND,
    INSUFFICIENT_BALANCE,
    INVALID_SIGNATURE,
    INVALID_API_KEY,
    IP_NOT_WHITELISTED,
    UNAUTHORIZED,
    FORBIDDEN,
    ACCOUNT_SUSPENDED,
    RATE_LIMIT_EXCEEDED,
    DAILY_LIMIT_EXCEEDED,

    // ---- ours: no usable answer came
    /** The provider gave no code we could find. */
    UNKNOWN_ERROR,
    /** No answer within the response timeout; the request may have arrived. */
    TIMEOUT,
    /** No connection was made: nothing was sent. */
    CONNECTION_FAILED,
    /** The connection broke after the request was (perhaps) sent: closed, reset, no answer. */
    CONNECTION_LOST,
    UNREADABLE_ANSWER,
    /** The request was never sent: the run is stopping, or the waiting thread was interrupted. */
    INTERRUPTED;

    /**
     * Codes that say the product cannot be had now rather than that this order is wrong. The interface
     * names none; these are the names providers give it (the sandbox answers PRODUCT_UNAVAILABLE,
     * Digiflazz's failures read "stock empty", "product down (inactive)", "cut-off"). See docs/provider.md.
     */
    static final java.util.Set<String> UNAVAILABLE_CODES = java.util.Set.of(
            "PRODUCT_UNAVAILABLE", "PRODUCT_INACTIVE", "PRODUCT_DOWN", "PRODUCT_DISABLED", "PRODUCT_MAINTENANCE",
            "PRODUCT_OUT_OF_STOCK", "OUT_OF_STOCK", "STOCK_EMPTY", "PRODUCT_CUT_OFF", "CUT_OFF", "IN_CUT_OFF");

    /** The known code for a wire code (any letter case), if it is one of ours. */
    public static Optional<ProviderError> of(String code) {
        if (code == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(valueOf(code.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** No retry and no other row will heal it: the credentials, the account or the money. */
    boolean stopsSubmission() {
        return switch (this) {
            case INVALID_SIGNATURE, INVALID_API_KEY, IP_NOT_WHITELISTED, INSUFFICIENT_BALANCE,
                    UNAUTHORIZED, FORBIDDEN, ACCOUNT_SUSPENDED -> true;
            default -> false;
        };
    }

    /** The request never reached the provider, so sending it again is safe. */
    boolean nothingSent() {
        return this == CONNECTION_FAILED || this == INTERRUPTED;
    }

    /** A read that failed like this may well succeed when tried again. */
    boolean transientFailure() {
        return this == TIMEOUT || this == CONNECTION_FAILED || this == UNREADABLE_ANSWER;
    }

    boolean rateLimited() {
        return this == RATE_LIMIT_EXCEEDED || this == DAILY_LIMIT_EXCEEDED;
    }
}
