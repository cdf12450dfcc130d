package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The test side's Digiflazz client, written from the buyer pages of developer.digiflazz.com: its own md5
 * ({@link SandboxTestClient#md5}, MessageDigest) and its own HMAC-SHA1, not the sandbox's commons-codec.
 */
final class DigiflazzTestClient {

    static final String USERNAME = "demouser7Xk";
    /** In the Digiflazz dialect the api-key knob is Digiflazz's key. */
    static final String KEY = SandboxTestClient.KEY;

    private final SandboxTestClient http;
    private final String username;
    private final String key;

    DigiflazzTestClient(String baseUrl) {
        this(baseUrl, USERNAME, KEY);
    }

    DigiflazzTestClient(String baseUrl, String username, String key) {
        this.http = new SandboxTestClient(baseUrl);
        this.username = username;
        this.key = key;
    }

    /** md5(username + key + component), as every buyer page gives the formula. */
    String sign(String component) {
        return SandboxTestClient.md5(username + key + component);
    }

    ObjectNode cekSaldoBody() {
        ObjectNode body = SandboxTestClient.MAPPER.createObjectNode();
        body.put("cmd", "deposit");
        body.put("username", username);
        body.put("sign", sign("depo"));
        return body;
    }

    ObjectNode priceListBody(String cmd) {
        ObjectNode body = SandboxTestClient.MAPPER.createObjectNode();
        body.put("cmd", cmd);
        body.put("username", username);
        body.put("sign", sign("pricelist"));
        return body;
    }

    ObjectNode topupBody(String refId, String sku, String customerNo) {
        ObjectNode body = SandboxTestClient.MAPPER.createObjectNode();
        body.put("username", username);
        body.put("buyer_sku_code", sku);
        body.put("customer_no", customerNo);
        body.put("ref_id", refId);
        body.put("sign", sign(refId));
        return body;
    }

    SandboxTestClient.Answer cekSaldo() {
        return post("/v1/cek-saldo", cekSaldoBody());
    }

    SandboxTestClient.Answer priceList() {
        return post("/v1/price-list", priceListBody("prepaid"));
    }

    SandboxTestClient.Answer topup(String refId, String sku, String customerNo) {
        return post("/v1/transaction", topupBody(refId, sku, customerNo));
    }

    SandboxTestClient.Answer post(String path, JsonNode body) {
        return http.post(path, body);
    }

    SandboxTestClient.Answer get(String path) {
        return http.get(path);
    }

    /** {@code sha1=} and the lower-case hex HMAC-SHA1 of the raw body, as the Webhooks page describes X-Hub-Signature. */
    static String hubSignature(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            StringBuilder hex = new StringBuilder("sha1=");
            for (byte b : mac.doFinal(body)) {
                hex.append(String.format("%02x", b & 0xff));
            }
            return hex.toString();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
