package org.topupbatch.provider;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Computes the provider's request signature, md5(api_key + secret + final component) as 32
 * lower-case hex characters. The secret stays inside this object: there is no getter and
 * {@link #toString()} leaves it out, so it cannot end up in a log line or an exception by accident.
 */
public final class Signer {

    /** The fixed final components of interface section 5; create-order and check-order use the ref_id. */
    public static final String BALANCE = "balance";
    public static final String PRICE_LIST = "pricelist";
    public static final String HISTORY = "history";
    public static final String PROFILE = "profile";

    private final String apiKey;
    private final String secret;

    public Signer(String apiKey, String secret) {
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalArgumentException("api_key is empty");
        }
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("api secret is empty");
        }
        this.apiKey = apiKey;
        this.secret = secret;
    }

    public String apiKey() {
        return apiKey;
    }

    /** The sign value for one request whose final component is {@code finalComponent}. */
    public String sign(String finalComponent) {
        Objects.requireNonNull(finalComponent, "finalComponent");
        try {
            // A new digest per call: MessageDigest is not thread-safe and the client is shared.
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            byte[] digest = md5.digest((apiKey + secret + finalComponent).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide MD5; reaching this is a broken JRE.
            throw new IllegalStateException("MD5 is not available", e);
        }
    }

    @Override
    public String toString() {
        return "Signer[apiKey=" + apiKey + ", secret=***]";
    }
}
