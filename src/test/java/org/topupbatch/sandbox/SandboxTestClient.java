package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;

/**
 * The test side's own client: plain java.net.http and its own md5 (MessageDigest, not the sandbox's
 * commons-codec), so a signing mistake on either side shows.
 */
final class SandboxTestClient {

    static final String KEY = "RSL-7F3A9C21";
    static final String SECRET = "s3cr3t-Kx9pQ2";
    static final ObjectMapper MAPPER = new ObjectMapper();

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    SandboxTestClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    record Answer(int status, JsonNode json, String body, HttpResponse<String> response) {
        String code() {
            return json == null ? null : json.path("error_code").asText(null);
        }

        JsonNode data() {
            return json.get("data");
        }
    }

    static String md5(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            return String.format("%032x", new BigInteger(1, digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sign(String component) {
        return md5(KEY + SECRET + component);
    }

    static ObjectNode signed(String component) {
        ObjectNode body = MAPPER.createObjectNode();
        body.put("api_key", KEY);
        body.put("sign", sign(component));
        return body;
    }

    static ObjectNode order(String refId, String sku, String customerNo, String zone) {
        ObjectNode body = signed(refId);
        body.put("ref_id", refId);
        body.put("product_sku", sku);
        body.put("customer_no", customerNo);
        if (zone != null) {
            body.put("customer_no_zone", zone);
        }
        return body;
    }

    Answer balance() {
        return post("/v1/check-balance", signed("balance"));
    }

    Answer priceList() {
        return post("/v1/price-list", signed("pricelist"));
    }

    Answer profile() {
        return post("/v1/profile", signed("profile"));
    }

    Answer history(ObjectNode extra) {
        ObjectNode body = signed("history");
        if (extra != null) {
            body.setAll(extra);
        }
        return post("/v1/order-history", body);
    }

    Answer createOrder(String refId, String sku, String customerNo, String zone) {
        return post("/v1/create-order", order(refId, sku, customerNo, zone));
    }

    Answer checkOrder(String refId) {
        ObjectNode body = signed(refId);
        body.put("ref_id", refId);
        return post("/v1/check-order", body);
    }

    Answer post(String path, JsonNode body) {
        return postRaw(path, body.toString());
    }

    Answer postRaw(String path, String body) {
        try {
            return answer(sendRaw(path, body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Throws the IOException a dropped connection gives. */
    HttpResponse<String> sendRaw(String path, String body) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    Answer get(String path) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10)).GET().build();
            return answer(http.send(request, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Answer answer(HttpResponse<String> response) {
        JsonNode json = null;
        try {
            json = MAPPER.readTree(response.body());
        } catch (IOException e) {
            // not JSON (the 504 HTML page): json stays null
        }
        return new Answer(response.statusCode(), json, response.body(), response);
    }
}
