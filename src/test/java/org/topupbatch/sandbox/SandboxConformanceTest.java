package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Written from docs/provider.md, section by section: every field name and JSON type of every
 * record, the envelope, and the check-order extension of docs/provider-client.md.
 */
class SandboxConformanceTest {

    private static SandboxProvider sandbox;
    private static SandboxTestClient client;
    /** Before the sandbox's first answer: every time it stamps lies between this and now (it runs on the real clock). */
    private static Instant started;

    @BeforeAll
    static void start() {
        started = Instant.now().minusSeconds(1); // a stamp in whole seconds may fall before the instant it was taken
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(7L)
                .setSettleDelay(DurationRange.parse("50ms-100ms")), 0);
        client = new SandboxTestClient(sandbox.baseUrl());
    }

    @AfterAll
    static void stop() {
        sandbox.close();
    }

    private static final JsonNodeType STRING = JsonNodeType.STRING;
    private static final JsonNodeType NUMBER = JsonNodeType.NUMBER;
    private static final JsonNodeType BOOLEAN = JsonNodeType.BOOLEAN;

    /** Asserts exactly these fields with these JSON types (NULL allowed where listed as nullable). */
    private static void assertShape(JsonNode node, Map<String, JsonNodeType> fields, String... nullable) {
        assertThat(node.isObject()).as("object: %s", node).isTrue();
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        assertThat(names).as("field names of %s", node).containsExactlyInAnyOrderElementsOf(fields.keySet());
        fields.forEach((name, type) -> {
            JsonNode value = node.get(name);
            if (List.of(nullable).contains(name) && value.isNull()) {
                return;
            }
            assertThat(value.getNodeType()).as("type of %s in %s", name, node).isEqualTo(type);
            if (type == NUMBER && !name.equals("success_rate")) {
                assertThat(value.isIntegralNumber()).as("%s is an integer", name).isTrue();
            }
        });
    }

    private static JsonNode okData(SandboxTestClient.Answer answer) {
        return okData(answer, JsonNodeType.OBJECT);
    }

    /** The envelope of a 200 answer whose {@code data} must be of type {@code data} (an object; the price list an array). */
    private static JsonNode okData(SandboxTestClient.Answer answer, JsonNodeType data) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.response().headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertShape(answer.json(), Map.of("success", BOOLEAN, "data", data, "message", STRING, "timestamp", STRING));
        assertStampedNow(answer.json().get("timestamp"));
        assertThat(answer.json().get("success").booleanValue()).isTrue();
        assertThat(answer.json().get("message").textValue()).isEqualTo("OK");
        return answer.data();
    }

    @Test
    void checkBalanceIsTheBalanceRecord() {
        JsonNode data = okData(client.balance());
        assertShape(data, Map.of("balance", NUMBER, "currency", STRING, "tier", STRING, "name", STRING));
        assertThat(data.get("currency").textValue()).isEqualTo("IDR");
        assertThat(data.get("tier").textValue()).isIn("basic", "silver", "gold");
        assertThat(data.get("balance").longValue()).isEqualTo(sandbox.balance());
    }

    @Test
    void priceListIsAnArrayOfProducts() {
        JsonNode data = okData(client.priceList(), JsonNodeType.ARRAY);
        assertThat(data.isArray()).isTrue();
        assertThat(data.size()).isGreaterThanOrEqualTo(30);
        for (JsonNode p : data) {
            assertShape(p, Map.of("product_sku", STRING, "product_name", STRING, "brand", STRING, "category", STRING,
                    "price", NUMBER, "selling_price", NUMBER, "status", BOOLEAN, "description", STRING));
            assertThat(p.get("category").textValue()).isIn("games", "voucher", "pulsa");
            assertThat(p.get("brand").textValue()).isUpperCase();
            assertThat(p.get("selling_price").longValue()).isGreaterThan(p.get("price").longValue());
        }
    }

    @Test
    void createOrderAnswersBothVariants() {
        JsonNode success = okData(client.createOrder("CONF-1", "ML86", "12345678", "2001"));
        assertShape(success, orderFields(), "serial_number");
        assertThat(success.get("status").textValue()).isEqualTo("success");
        assertThat(success.get("serial_number").isTextual()).isTrue();
        assertThat(success.get("ref_id").textValue()).isEqualTo("CONF-1");
        assertThat(success.get("balance_after").longValue())
                .isEqualTo(success.get("balance_before").longValue() - success.get("price").longValue());

        JsonNode pending = okData(client.createOrder("CONF-2", "GI60", "812345678", "asia"));
        assertShape(pending, orderFields(), "serial_number");
        assertThat(pending.get("status").textValue()).isEqualTo("pending");
        assertThat(pending.get("serial_number").isNull()).isTrue();
        assertThat(pending.get("balance_after").longValue())
                .isEqualTo(pending.get("balance_before").longValue() - pending.get("price").longValue());
    }

    @Test
    void orderHistoryHasOrdersAndPagination() {
        client.createOrder("CONF-H1", "FF100", "123456789", null);
        client.createOrder("CONF-H2", "STEAM45K", "buyer@example.com", null);
        JsonNode data = okData(client.history(null));
        assertShape(data, Map.of("orders", JsonNodeType.ARRAY, "pagination", JsonNodeType.OBJECT));
        assertShape(data.get("pagination"), Map.of("page", NUMBER, "limit", NUMBER, "total", NUMBER, "total_pages", NUMBER));
        assertThat(data.get("pagination").get("page").intValue()).isEqualTo(1);
        assertThat(data.get("pagination").get("limit").intValue()).isEqualTo(20);
        assertThat(data.get("orders").size()).isGreaterThanOrEqualTo(2);
        boolean sawPendingNull = false;
        for (JsonNode entry : data.get("orders")) {
            assertShape(entry, Map.of("ref_id", STRING, "product_sku", STRING, "product_name", STRING, "customer_no", STRING,
                    "status", STRING, "serial_number", STRING, "price", NUMBER, "created_at", STRING), "serial_number");
            assertStampedNow(entry.get("created_at"));
            assertThat(entry.get("created_at").textValue()).endsWith("Z");
            if (entry.get("status").textValue().equals("pending")) {
                assertThat(entry.get("serial_number").isNull()).isTrue();
                sawPendingNull = true;
            }
        }
        assertThat(sawPendingNull).as("a pending STEAM order lists serial_number null").isTrue();
    }

    @Test
    void profileHasEveryField() {
        JsonNode data = okData(client.profile());
        assertShape(data, Map.ofEntries(Map.entry("id", STRING), Map.entry("name", STRING), Map.entry("email", STRING),
                Map.entry("phone", STRING), Map.entry("tier", STRING), Map.entry("balance", NUMBER),
                Map.entry("total_orders", NUMBER), Map.entry("total_success", NUMBER), Map.entry("success_rate", NUMBER),
                Map.entry("joined_at", STRING), Map.entry("api_usage", JsonNodeType.OBJECT),
                Map.entry("webhook_url", STRING), Map.entry("ip_whitelist", JsonNodeType.ARRAY)));
        assertShape(data.get("api_usage"), Map.of("today", NUMBER, "this_month", NUMBER, "limit_per_minute", NUMBER,
                "limit_per_day", NUMBER));
        assertThat(data.get("api_usage").get("limit_per_minute").intValue()).isEqualTo(300);
        assertThat(data.get("api_usage").get("limit_per_day").intValue()).isEqualTo(200_000);
        assertThat(data.get("api_usage").get("today").longValue()).isPositive();
        JsonNode rate = data.get("success_rate");
        assertThat(rate.isFloatingPointNumber() || rate.isBigDecimal()).as("success_rate is a decimal").isTrue();
        assertThat(rate.decimalValue().doubleValue()).isBetween(0.0, 100.0);
        // two fractional digits on the wire, e.g. 100.00 or 66.67
        assertThat(client.profile().body()).containsPattern("\"success_rate\":\\d{1,3}\\.\\d{2}[,}]");
        assertThat(Instant.parse(data.get("joined_at").textValue())).isBefore(Instant.now());
        for (JsonNode ip : data.get("ip_whitelist")) {
            assertThat(ip.isTextual()).isTrue();
        }
    }

    @Test
    void checkOrderIsTheOrderRecordPlusCreatedAt() {
        client.createOrder("CONF-C1", "TSEL10", "081234567891", null);
        JsonNode data = okData(client.checkOrder("CONF-C1"));
        Map<String, JsonNodeType> fields = new java.util.HashMap<>(orderFields());
        fields.put("created_at", STRING);
        assertShape(data, fields, "serial_number");
        assertThat(data.get("ref_id").textValue()).isEqualTo("CONF-C1");
        assertStampedNow(data.get("created_at"));
    }

    /** An ISO 8601 instant taken during this test class (the sandbox stamps on the real clock). */
    private static void assertStampedNow(JsonNode stamp) {
        assertThat(Instant.parse(stamp.textValue())).as("ISO 8601 instant of this run: %s", stamp)
                .isBetween(started, Instant.now().plusSeconds(1));
    }

    private static Map<String, JsonNodeType> orderFields() {
        return Map.of("ref_id", STRING, "product_sku", STRING, "customer_no", STRING, "status", STRING,
                "serial_number", STRING, "price", NUMBER, "balance_before", NUMBER, "balance_after", NUMBER, "message", STRING);
    }
}
