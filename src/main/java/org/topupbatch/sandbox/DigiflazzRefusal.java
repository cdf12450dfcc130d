package org.topupbatch.sandbox;

/**
 * A Digiflazz request refused before any transaction exists: answered as {@code data} with the rc and its
 * meaning. The message never holds the key, a sign or the webhook secret.
 */
final class DigiflazzRefusal extends RuntimeException {

    private final DigiflazzRc rc;
    private final int httpStatus;
    private final long retryAfterSeconds;

    DigiflazzRefusal(DigiflazzRc rc, String detail) {
        this(rc, detail, 200, -1);
    }

    DigiflazzRefusal(DigiflazzRc rc, String detail, int httpStatus, long retryAfterSeconds) {
        super(detail, null, false, false);
        this.rc = rc;
        this.httpStatus = httpStatus;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    static DigiflazzRefusal payload(String detail) {
        return new DigiflazzRefusal(DigiflazzRc.PAYLOAD_ERROR, detail);
    }

    DigiflazzRc rc() {
        return rc;
    }

    int httpStatus() {
        return httpStatus;
    }

    long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
