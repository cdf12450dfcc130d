package org.topupbatch.provider;

/**
 * A provider call that did not give a usable answer.
 *
 * <p>{@code outcomeUnknown} is the one bit the whole product's "exactly once" rests on: it is
 * true when the request may have taken effect at the provider (a timeout, a dropped connection,
 * a 5xx, an answer that cannot be read). Such an order is reconciled, never re-created under a
 * new ref_id and never declared failed.
 *
 * <p>The message never contains the api secret or a signature.
 */
public class ProviderException extends RuntimeException {

    /** Code used when the provider gave none we could find. */
    public static final String NO_CODE = ProviderError.UNKNOWN_ERROR.name();
    public static final String TIMEOUT = ProviderError.TIMEOUT.name();
    public static final String CONNECTION_FAILED = ProviderError.CONNECTION_FAILED.name();
    public static final String UNREADABLE_ANSWER = ProviderError.UNREADABLE_ANSWER.name();
    /** The connection broke after the request was (perhaps) sent: closed, reset, no answer. */
    public static final String CONNECTION_LOST = ProviderError.CONNECTION_LOST.name();
    /** The calling thread was interrupted before the request was sent. */
    public static final String INTERRUPTED = ProviderError.INTERRUPTED.name();

    private final String code;
    private final int httpStatus;
    private final boolean outcomeUnknown;
    private final String providerMessage;
    private final Long retryAfterSeconds;

    public ProviderException(String operation, ProviderError error, int httpStatus, boolean outcomeUnknown,
                             String providerMessage, Long retryAfterSeconds, Throwable cause) {
        this(operation, error.name(), httpStatus, outcomeUnknown, providerMessage, retryAfterSeconds, cause);
    }

    public ProviderException(String operation, String code, int httpStatus, boolean outcomeUnknown,
                             String providerMessage, Long retryAfterSeconds, Throwable cause) {
        super(operation + ": " + code + (httpStatus > 0 ? " (HTTP " + httpStatus + ")" : "")
                + (providerMessage == null || providerMessage.isBlank() ? "" : ": " + providerMessage), cause);
        this.code = code;
        this.httpStatus = httpStatus;
        this.outcomeUnknown = outcomeUnknown;
        this.providerMessage = providerMessage;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** The provider's error code (DUPLICATE_REF_ID, INSUFFICIENT_BALANCE, ...) or one of ours (TIMEOUT, ...). */
    public String code() {
        return code;
    }

    /** The HTTP status, or 0 when no HTTP answer came. */
    public int httpStatus() {
        return httpStatus;
    }

    /** True when the request may have taken effect at the provider. */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }

    /** The provider's own human-readable message, when it sent one. */
    public String providerMessage() {
        return providerMessage;
    }

    /** Seconds to wait as the provider asked (Retry-After), or null. */
    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The code as one the product knows, or empty for a code of the provider's we do not act on. */
    public java.util.Optional<ProviderError> error() {
        return ProviderError.of(code);
    }

    public boolean is(ProviderError error) {
        return error().filter(error::equals).isPresent();
    }

    /** The provider asks us to slow down (429 or a rate-limit code): every caller pauses. */
    public boolean isRateLimited() {
        return httpStatus == 429 || error().filter(ProviderError::rateLimited).isPresent();
    }

    /**
     * No retry and no other row will heal this (credentials, account, balance): submission stops.
     * Only a refusal counts; an unknown outcome never stops anything.
     */
    public boolean stopsSubmission() {
        return !outcomeUnknown
                && (error().filter(ProviderError::stopsSubmission).isPresent() || httpStatus == 401 || httpStatus == 403);
    }

    /** A read that failed like this is worth trying again (5xx, timeouts, dropped or unreadable answers). */
    public boolean transientFailure() {
        return httpStatus >= 500 || httpStatus == 0 || error().filter(ProviderError::transientFailure).isPresent();
    }

    /** The request cannot have reached the provider: the order may simply be sent again later. */
    public boolean nothingSent() {
        return !outcomeUnknown && error().filter(ProviderError::nothingSent).isPresent();
    }

    /** The provider already holds an order under this ref_id: look it up, never call it failed. */
    public boolean meansOrderExists() {
        return !outcomeUnknown && is(ProviderError.DUPLICATE_REF_ID);
    }

    /** The provider holds no order under this ref_id. */
    public boolean meansNoSuchOrder() {
        return is(ProviderError.ORDER_NOT_FOUND);
    }

    /**
     * The provider refused the order because the product cannot be had now (out of stock, inactive,
     * down, in cut-off): no order exists, and the product's other rows would be refused alike.
     */
    public boolean meansProductUnavailable() {
        return !outcomeUnknown && code != null && ProviderError.UNAVAILABLE_CODES.contains(code.toUpperCase(java.util.Locale.ROOT));
    }

    /**
     * With several accounts: a refusal that proves this account made no order and that another
     * account may well take it (the product cannot be had here now, or this account's balance is
     * short, or it could not be connected to at all: no request reached it). The row goes to its next
     * account under a new ref_id (docs/accounts-and-dialects.md#several-accounts).
     */
    public boolean meansAnotherAccountMayTakeIt() {
        return !outcomeUnknown && (meansProductUnavailable() || is(ProviderError.INSUFFICIENT_BALANCE)
                || is(ProviderError.CONNECTION_FAILED));
    }
}
