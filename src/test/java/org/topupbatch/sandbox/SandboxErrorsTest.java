package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every code of the error table in docs/provider-client.md, the error envelope, and the known-answer signatures of docs/provider.md. */
class SandboxErrorsTest {

    private SandboxProvider sandbox;
    private SandboxTestClient client;

    @BeforeEach
    void start() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(11L), 0);
        client = new SandboxTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
    }

    private static void assertError(SandboxTestClient.Answer answer, int status, String code) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.json()).as("JSON error body: %s", answer.body()).isNotNull();
        List<String> names = new java.util.ArrayList<>();
        answer.json().fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactlyInAnyOrder("success", "data", "message", "error_code", "timestamp");
        assertThat(answer.json().get("success").booleanValue()).isFalse();
        assertThat(answer.json().get("data").isNull()).isTrue();
        assertThat(answer.json().get("message").isTextual()).isTrue();
        assertThat(answer.code()).isEqualTo(code);
    }

    @Test
    void knownAnswerSignaturesFromDesignAreAccepted() {
        Map<String, String> known = Map.of(
                "balance", "b1311981041ec3bc83b44c13bc497703",
                "pricelist", "9d3c4a210ce8305110a4fb2c6ec975a7",
                "history", "9879e6b27cac86c51a30f071a8551023",
                "profile", "bf26124b73cc601a6f4849da23a5f94e",
                "ERP-20261121-000123", "d4681da0e2f24990fe6d6a363aef5018");
        // the test side's md5 agrees with the table, and so does the sandbox's
        known.forEach((component, sign) -> {
            assertThat(SandboxTestClient.sign(component)).isEqualTo(sign);
            assertThat(SandboxSigner.requestSign("RSL-7F3A9C21", "s3cr3t-Kx9pQ2", component)).isEqualTo(sign);
        });
        assertThat(client.postRaw("/v1/check-balance",
                "{\"api_key\":\"RSL-7F3A9C21\",\"sign\":\"b1311981041ec3bc83b44c13bc497703\"}").status()).isEqualTo(200);
        assertThat(client.postRaw("/v1/price-list",
                "{\"api_key\":\"RSL-7F3A9C21\",\"sign\":\"9d3c4a210ce8305110a4fb2c6ec975a7\"}").status()).isEqualTo(200);
        assertThat(client.postRaw("/v1/order-history",
                "{\"api_key\":\"RSL-7F3A9C21\",\"sign\":\"9879e6b27cac86c51a30f071a8551023\"}").status()).isEqualTo(200);
        assertThat(client.postRaw("/v1/profile",
                "{\"api_key\":\"RSL-7F3A9C21\",\"sign\":\"bf26124b73cc601a6f4849da23a5f94e\"}").status()).isEqualTo(200);
        assertThat(client.postRaw("/v1/create-order", "{\"api_key\":\"RSL-7F3A9C21\",\"ref_id\":\"ERP-20261121-000123\","
                + "\"product_sku\":\"TSEL10\",\"customer_no\":\"081234567890\",\"sign\":\"d4681da0e2f24990fe6d6a363aef5018\"}")
                .status()).isEqualTo(200);
    }

    @Test
    void upperCaseHexIsAccepted() {
        ObjectNode body = SandboxTestClient.signed("balance");
        body.put("sign", "B1311981041EC3BC83B44C13BC497703");
        assertThat(client.post("/v1/check-balance", body).status()).isEqualTo(200);
    }

    @Test
    void wrongSignatureIsRefused() {
        ObjectNode body = SandboxTestClient.signed("balance");
        body.put("sign", "b1311981041ec3bc83b44c13bc497704");
        assertError(client.post("/v1/check-balance", body), 401, "INVALID_SIGNATURE");
        // the signature of another operation does not open this one
        assertError(client.post("/v1/profile", SandboxTestClient.signed("balance")), 401, "INVALID_SIGNATURE");
        // create-order is signed with its own ref_id
        ObjectNode order = SandboxTestClient.order("R-1", "TSEL10", "081234567890", null);
        order.put("sign", SandboxTestClient.sign("R-2"));
        assertError(client.post("/v1/create-order", order), 401, "INVALID_SIGNATURE");
        assertThat(sandbox.ledger()).isEmpty();
    }

    @Test
    void unknownApiKey() {
        ObjectNode body = SandboxTestClient.signed("balance");
        body.put("api_key", "RSL-00000000");
        assertError(client.post("/v1/check-balance", body), 401, "INVALID_API_KEY");
    }

    @Test
    void invalidRequest() {
        assertError(client.postRaw("/v1/check-balance", "not json"), 400, "INVALID_REQUEST");
        assertError(client.postRaw("/v1/check-balance", "[1,2]"), 400, "INVALID_REQUEST");
        assertError(client.postRaw("/v1/check-balance", ""), 400, "INVALID_REQUEST");
        assertError(client.postRaw("/v1/check-balance", "{\"api_key\":\"RSL-7F3A9C21\"}"), 400, "INVALID_REQUEST");
        ObjectNode order = SandboxTestClient.order("R-1", "TSEL10", "081234567890", null);
        order.remove("product_sku");
        assertError(client.post("/v1/create-order", order), 400, "INVALID_REQUEST");
        order = SandboxTestClient.order("R-1", "TSEL10", "081234567890", null);
        order.put("customer_no", 81234567890L);
        assertError(client.post("/v1/create-order", order), 400, "INVALID_REQUEST");
        ObjectNode page = SandboxTestClient.MAPPER.createObjectNode();
        page.put("page", 0);
        assertError(client.history(page), 400, "INVALID_REQUEST");
        page.put("page", "1");
        assertError(client.history(page), 400, "INVALID_REQUEST");
        ObjectNode date = SandboxTestClient.MAPPER.createObjectNode();
        date.put("start_date", "21-11-2026");
        assertError(client.history(date), 400, "INVALID_REQUEST");
        ObjectNode status = SandboxTestClient.MAPPER.createObjectNode();
        status.put("status", "processing");
        assertError(client.history(status), 400, "INVALID_REQUEST");
    }

    @Test
    void invalidRefId() {
        String tooLong = "R".repeat(51);
        assertError(client.createOrder(tooLong, "TSEL10", "081234567890", null), 400, "INVALID_REF_ID");
        assertError(client.createOrder("", "TSEL10", "081234567890", null), 400, "INVALID_REF_ID");
        assertError(client.createOrder("R 1", "TSEL10", "081234567890", null), 400, "INVALID_REF_ID");
        assertError(client.createOrder("R/1", "TSEL10", "081234567890", null), 400, "INVALID_REF_ID");
        assertThat(client.createOrder("R".repeat(50), "TSEL10", "081234567890", null).status()).isEqualTo(200);
        assertThat(client.createOrder("A_b.c-1", "TSEL10", "081234567890", null).status()).isEqualTo(200);
    }

    @Test
    void invalidCustomerNo() {
        List<String[]> bad = List.of(
                new String[] {"ML86", "12345", "1234"},          // MLBB id too short
                new String[] {"ML86", "1234567890123", "1234"},  // MLBB id too long
                new String[] {"ML86", "12345678", "123456"},     // MLBB zone too long
                new String[] {"GI60", "81234567", "asia"},       // Genshin UID too short
                new String[] {"GI60", "812345678", "mars"},      // Genshin server unknown
                new String[] {"FF100", "1234567", null},         // Free Fire id too short
                new String[] {"PUBG60", "12345abc9", null},      // letters
                new String[] {"VAL475", "PlayerOne", null},      // no #TAG
                new String[] {"VAL475", "Pl#TAG1", null},        // name too short
                new String[] {"VAL475", "PlayerOne#TOOLONG", null},
                new String[] {"GP50K", "abc", null},             // too short
                new String[] {"GP50K", "a b@example.com", null}, // blank inside
                new String[] {"TSEL10", "081412345678", null},   // Indosat prefix on a Telkomsel product
                new String[] {"TSEL10", "08123456", null},       // too short
                new String[] {"TSEL10", "81234567890", null},    // the leading 0 lost
                new String[] {"TSEL10", "0812-3456-7890", null}, // separators: this provider takes digits only
                new String[] {"TSEL10", "6.28E+11", null},       // scientific notation
                new String[] {"ML86", "123456789 (20123)x", "1"},
                new String[] {"VAL475", "Player #TAG1", null},   // name ends with a space
                new String[] {"GP50K", "ab\tcd@example.com", null},
                new String[] {"XL10", "081234567890", null});
        int i = 0;
        for (String[] row : bad) {
            assertError(client.createOrder("BAD-" + i++, row[0], row[1], row[2]), 400, "INVALID_CUSTOMER_NO");
        }
        List<String[]> good = List.of(
                new String[] {"ML86", "123456", "1"},
                new String[] {"GI60", "8123456789", "tw_hk_mo"},
                new String[] {"GI60", "812345678", "os_asia"},
                new String[] {"GI60", "612345678", "America"},
                new String[] {"GI60", "912345678", "TW/HK/MO"},
                new String[] {"ML86", "123456789 (2012)", null},  // the zone inside customer_no
                new String[] {"ML86", "123456789(2012)", ""},
                new String[] {"FF100", "12345678", "2012"},       // a zone the product does not use is ignored
                new String[] {"TSEL10", "6281234567890", null},
                new String[] {"TSEL10", "+6281234567890", null},
                new String[] {"XL10", "083812345678", null},      // an AXIS range, now XL
                new String[] {"FF100", "123456789012", null},
                new String[] {"VAL475", "Player One#SEA1", null},
                new String[] {"GP50K", "buyer@example.com", null},
                new String[] {"ISAT10", "085512345678", null},
                new String[] {"XL10", "0877123456789", null},
                new String[] {"TRI10", "0895123456", null},
                new String[] {"SMART10", "088112345678", null});
        for (String[] row : good) {
            assertThat(client.createOrder("GOOD-" + i++, row[0], row[1], row[2]).status()).as(String.join(" ", row)).isEqualTo(200);
        }
        assertThat(sandbox.ledger()).hasSize(good.size());
    }

    @Test
    void zoneRequired() {
        assertError(client.createOrder("Z-1", "ML86", "12345678", null), 400, "ZONE_REQUIRED");
        assertError(client.createOrder("Z-2", "GI60", "812345678", ""), 400, "ZONE_REQUIRED");
        assertError(client.createOrder("Z-3", "ML86", "123456789 ()", null), 400, "ZONE_REQUIRED");
    }

    @Test
    void insufficientBalance() {
        sandbox.config().setBalance(10_000);
        assertError(client.createOrder("B-1", "ML2195", "12345678", "1234"), 402, "INSUFFICIENT_BALANCE");
        assertThat(sandbox.balance()).isEqualTo(10_000);
        assertThat(sandbox.ledger()).isEmpty();
    }

    @Test
    void ipWhitelistOnlyWhenEnforced() {
        sandbox.config().setIpWhitelist(List.of("10.1.2.3"));
        assertThat(client.balance().status()).as("not enforced by default").isEqualTo(200);
        sandbox.config().setIpWhitelistEnforced(true);
        assertError(client.balance(), 403, "IP_NOT_WHITELISTED");
        sandbox.config().setIpWhitelist(List.of("10.1.2.3", "127.0.0.1"));
        assertThat(client.balance().status()).isEqualTo(200);
    }

    @Test
    void productNotFoundAndUnavailable() {
        assertError(client.createOrder("P-1", "ML99999", "12345678", "1234"), 404, "PRODUCT_NOT_FOUND");
        assertError(client.createOrder("P-2", "FF2180", "123456789", null), 422, "PRODUCT_UNAVAILABLE");
    }

    @Test
    void orderNotFound() {
        assertError(client.checkOrder("NEVER-USED"), 404, "ORDER_NOT_FOUND");
    }

    @Test
    void checkOrderSwitchedOffIsAPlain404() {
        client.createOrder("C-1", "TSEL10", "081234567890", null);
        sandbox.config().setCheckOrder(false);
        SandboxTestClient.Answer answer = client.checkOrder("C-1");
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.code()).isNotEqualTo("ORDER_NOT_FOUND");
    }

    @Test
    void unknownPathAndWrongMethod() throws Exception {
        assertError(client.post("/v1/refund", SandboxTestClient.signed("refund")), 404, "NOT_FOUND");
        HttpResponse<String> get = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(sandbox.baseUrl() + "/v1/check-balance")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.body()).contains("METHOD_NOT_ALLOWED");
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");
    }

    @Test
    void duplicateRefIdComesBeforeEveryOtherOrderCheck() {
        assertThat(client.createOrder("D-1", "TSEL10", "081234567890", null).status()).isEqualTo(200);
        assertError(client.createOrder("D-1", "TSEL10", "081234567890", null), 409, "DUPLICATE_REF_ID");
        // a re-send that would now fail on product or balance still learns that the order exists
        sandbox.config().setBalance(0);
        assertError(client.createOrder("D-1", "NO-SUCH-SKU", "x", null), 409, "DUPLICATE_REF_ID");
        assertThat(sandbox.ledger()).hasSize(1);
    }

    @Test
    void injectedInternalError() {
        sandbox.config().setErrorRate(1.0);
        assertError(client.balance(), 500, "INTERNAL_ERROR");
        assertError(client.createOrder("E-1", "TSEL10", "081234567890", null), 500, "INTERNAL_ERROR");
        assertThat(sandbox.ledger()).as("nothing happened").isEmpty();
        sandbox.config().setErrorRate(0.0);
        assertThat(client.balance().status()).isEqualTo(200);
    }

    @Test
    void rateAndDailyLimitCodes() {
        sandbox.config().setTier(SandboxTier.BASIC);
        for (int i = 0; i < 60; i++) {
            assertThat(client.balance().status()).isEqualTo(200);
        }
        SandboxTestClient.Answer limited = client.balance();
        assertError(limited, 429, "RATE_LIMIT_EXCEEDED");
        assertThat(limited.response().headers().firstValue("Retry-After")).isPresent();
        assertThat(Long.parseLong(limited.response().headers().firstValue("Retry-After").get())).isBetween(1L, 60L);
    }
}
