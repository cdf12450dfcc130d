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

    private static final String HUB_PREFIX = "sha1=";
    private static final int SHA1_HEX_LENGTH = 40;

    private final byte[] secret;
    private final boolean hubSignature;

    /** {@code webhookSecret} null or empty: no webhook is ever taken as authentic. */
    public WebhookAuthenticator(String webhookSecret) {
        this(webhookSecret, false);
    }

    /**
     * {@code hubSignature}: the provider signs the raw body in an {@code X-Hub-Signature} header,
     * {@code sha1=} and the hex HMAC-SHA1 keyed with the webhook secret (Digiflazz, docs/digiflazz.md),
     * instead of the in-body md5.
     */
    public WebhookAuthenticator(String webhookSecret, boolean hubSignature) {
        this.secret = webhookSecret == null ? new byte[0] : webhookSecret.getBytes(StandardCharsets.UTF_8);
        this.hubSignature = hubSignature;
    }

    /** Whether the signature is the X-Hub-Signature header over the raw body. */
    public boolean signsBody() {
        return hubSignature;
    }

    /** Whether {@code header} ({@code sha1=<hex>}) is the HMAC-SHA1 of exactly these body bytes. */
    public boolean authenticBody(byte[] body, String header) {
        if (!verifies() || !hubSignature || body == null || header == null) {
            return false;
        }
        String hex = header.trim();
        if (!hex.regionMatches(true, 0, HUB_PREFIX, 0, HUB_PREFIX.length())) {
            return false;
        }
        hex = hex.substring(HUB_PREFIX.length());
        if (hex.length() != SHA1_HEX_LENGTH) {
            return false;
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            return false;
        }
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA1");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret, "HmacSHA1"));
            return MessageDigest.isEqual(mac.doFinal(body), given); // constant time
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 is not available", e);
        }
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
        if (!verifies() || hubSignature || refId == null || status == null || signature == null
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
