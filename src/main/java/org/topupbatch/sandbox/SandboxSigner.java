package org.topupbatch.sandbox;

import java.nio.charset.StandardCharsets;
import org.apache.commons.codec.digest.DigestUtils;

/** The sandbox's own signing, deliberately independent of the client's. */
final class SandboxSigner {

    private SandboxSigner() {
    }

    /** md5(api_key + secret + component) as lower-case hex. */
    static String requestSign(String apiKey, String secret, String component) {
        return DigestUtils.md5Hex((apiKey + secret + component).getBytes(StandardCharsets.UTF_8));
    }

    /** docs/provider-client.md accepts a sign in either hex letter case. */
    static boolean requestSignMatches(String sent, String apiKey, String secret, String component) {
        return sent != null && sent.equalsIgnoreCase(requestSign(apiKey, secret, component));
    }

    /** A webhook's signature: md5(webhook_secret + ref_id + status) as lower-case hex. */
    static String webhookSignature(String webhookSecret, String refId, String status) {
        return DigestUtils.md5Hex((webhookSecret + refId + status).getBytes(StandardCharsets.UTF_8));
    }
}
