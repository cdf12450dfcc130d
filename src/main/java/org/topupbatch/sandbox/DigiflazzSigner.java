package org.topupbatch.sandbox;

import java.nio.charset.StandardCharsets;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.commons.codec.binary.Hex;
import org.apache.commons.codec.digest.DigestUtils;

/**
 * Digiflazz's signatures: a request's {@code sign} is md5(username + key + a word or the ref_id)
 * (https://developer.digiflazz.com/api/buyer/cek-saldo, .../daftar-harga, .../topup), a webhook's
 * {@code X-Hub-Signature} is {@code sha1=} and the hex HMAC-SHA1 of the raw body under the webhook secret
 * (https://developer.digiflazz.com/api/buyer/webhook).
 */
final class DigiflazzSigner {

    private DigiflazzSigner() {
    }

    static String sign(String username, String key, String component) {
        return DigestUtils.md5Hex((username + key + component).getBytes(StandardCharsets.UTF_8));
    }

    /** md5 hex is case-free; a sign in capitals is the same sign. */
    static boolean matches(String sent, String username, String key, String component) {
        return sent != null && sent.equalsIgnoreCase(sign(username, key, component));
    }

    static String hubSignature(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return "sha1=" + Hex.encodeHexString(mac.doFinal(body));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 is not available", e);
        }
    }
}
