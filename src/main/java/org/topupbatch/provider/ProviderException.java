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
    public static final String NO_CODE = "UNKNOWN_ERROR";
    public static final String TIMEOUT = "TIMEOUT";
    public static final String CONNECTION_FAILED = "CONNECTION_FAILED";
    public static final String UNREADABLE_ANSWER = "UNREADABLE_ANSWER";
    /** The connection broke after the request was (perhaps) sent: closed, reset, no answer. */
    public static final String CONNECTION_LOST = "CONNECTION_LOST";
    /** The calling thread was interrupted before the request was sent. */
    public static final String INTERRUPTED = "INTERRUPTED";

    private final String code;
    private final int httpStatus;
    private final boolean outcomeUnknown;
    private final String providerMessage;
    private final Long retryAfterSeconds;

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

    public boolean isRateLimited() {
        return httpStatus == 429 || "RATE_LIMIT_EXCEEDED".equals(code) || "DAILY_LIMIT_EXCEEDED".equals(code);
    }
}
