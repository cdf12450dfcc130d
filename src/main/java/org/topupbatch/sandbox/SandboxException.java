package org.topupbatch.sandbox;

/** A refusal with the HTTP status and error code of the error table in docs/provider-client.md. */
final class SandboxException extends RuntimeException {

    private final int httpStatus;
    private final String code;
    private final long retryAfterSeconds;

    SandboxException(int httpStatus, String code, String message) {
        this(httpStatus, code, message, -1);
    }

    SandboxException(int httpStatus, String code, String message, long retryAfterSeconds) {
        super(message, null, false, false);
        this.httpStatus = httpStatus;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    static SandboxException invalidRequest(String message) {
        return new SandboxException(400, "INVALID_REQUEST", message);
    }

    int httpStatus() {
        return httpStatus;
    }

    String code() {
        return code;
    }

    /** Seconds for a Retry-After header, or -1 for none. */
    long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
