package org.topupbatch.order;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Tells whether a webhook really comes from the provider: its X-Topup-Signature must be the
 * hex HMAC-SHA256 of the raw body keyed with the api secret. The secret stays inside.
 */
public final class WebhookAuthenticator {

    private final SecretKeySpec key;

    public WebhookAuthenticator(String apiSecret) {
        this.key = new SecretKeySpec(apiSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public boolean authentic(byte[] body, String signatureHeader) {
        if (signatureHeader == null || signatureHeader.isBlank()) {
            return false;
        }
        String given = signatureHeader.trim();
        if (given.regionMatches(true, 0, "sha256=", 0, 7)) {
            given = given.substring(7);
        }
        byte[] expected;
        byte[] actual;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            expected = mac.doFinal(body);
            actual = HexFormat.of().parseHex(given);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(expected, actual); // constant time: no timing oracle
    }

    @Override
    public String toString() {
        return "WebhookAuthenticator[secret hidden]";
    }
}
