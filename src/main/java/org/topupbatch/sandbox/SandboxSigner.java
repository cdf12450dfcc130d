package org.topupbatch.sandbox;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.commons.codec.binary.Hex;
import org.apache.commons.codec.digest.DigestUtils;

/** The sandbox's own signing, deliberately independent of the client's. */
final class SandboxSigner {

    private SandboxSigner() {
    }

    /** md5(api_key + secret + component) as lower-case hex. */
    static String requestSign(String apiKey, String secret, String component) {
        return DigestUtils.md5Hex((apiKey + secret + component).getBytes(StandardCharsets.UTF_8));
    }

    /** The README accepts a sign in either hex letter case. */
    static boolean requestSignMatches(String sent, String apiKey, String secret, String component) {
        return sent != null && sent.equalsIgnoreCase(requestSign(apiKey, secret, component));
    }

    /** Hex HMAC-SHA256 of the raw webhook body, keyed with the api secret. */
    static String webhookSignature(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Hex.encodeHexString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
