package org.topupbatch.notify;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of a callback (docs/callbacks.md), in the scheme Stripe's webhooks made familiar:
 * {@code X-Topup-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">} with
 * {@code topup.callback.secret}. The time is signed with the body, so a receiver can refuse an old
 * request replayed.
 */
public final class CallbackSignature {

    public static final String HEADER = "X-Topup-Signature";
    public static final String EVENT_ID_HEADER = "X-Topup-Event-Id";

    private CallbackSignature() {
    }

    /** The header's value for this body signed at {@code unixSeconds}. */
    public static String header(String secret, long unixSeconds, String body) {
        return "t=" + unixSeconds + ",v1=" + hmacHex(secret, unixSeconds + "." + body);
    }

    /** Hex HMAC-SHA256 of the text with the secret (both as UTF-8). */
    public static String hmacHex(String secret, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this Java", e);
        }
    }
}
