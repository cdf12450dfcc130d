package org.topupbatch.track;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Tells whether a webhook really comes from the provider: its body's {@code signature} must be
 * md5(webhook_secret + ref_id + status) in hex (see docs/provider.md). The webhook secret is the
 * one from the provider's dashboard, not the api secret; it stays inside this object. Without a
 * secret nothing is authentic, and every webhook is only a hint.
 */
public final class WebhookAuthenticator {

    private static final int MD5_HEX_LENGTH = 32;

    private final byte[] secret;

    /** {@code webhookSecret} null or empty: no webhook is ever taken as authentic. */
    public WebhookAuthenticator(String webhookSecret) {
        this.secret = webhookSecret == null ? new byte[0] : webhookSecret.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether a secret is configured, i.e. whether a webhook can settle an order at all. */
    public boolean verifies() {
        return secret.length > 0;
    }

    /**
     * Whether {@code signature} signs exactly this {@code refId} and {@code status} (the words as
     * they stand in the body). Hex letter case does not matter.
     */
    public boolean authentic(String refId, String status, String signature) {
        if (!verifies() || refId == null || status == null || signature == null
                || signature.length() != MD5_HEX_LENGTH) {
            return false;
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(signature);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(expected(refId, status), given); // constant time: no timing oracle
    }

    private byte[] expected(String refId, String status) {
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is not available", e);
        }
        md5.update(secret);
        md5.update(refId.getBytes(StandardCharsets.UTF_8));
        md5.update(status.getBytes(StandardCharsets.UTF_8));
        return md5.digest();
    }

    @Override
    public String toString() {
        return "WebhookAuthenticator[" + (verifies() ? "secret hidden" : "no secret") + "]";
    }
}
