package org.topupbatch.sandbox;

import org.topupbatch.testing.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Order history: newest first, pagination, limit clamp, filters; the profile's counters. */
class SandboxOrderHistoryTest {

    private static SandboxProvider sandbox;
    private static SandboxTestClient client;

    @BeforeAll
    static void start() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(1L), 0);
        MutableClock clock = new MutableClock(Instant.parse("2026-11-20T23:00:00Z"));
        sandbox.setClock(clock);
        client = new SandboxTestClient(sandbox.baseUrl());
        // 150 orders over two UTC days: 2026-11-20 (first 50) and 2026-11-21; every 10th fails
        for (int i = 0; i < 150; i++) {
            String customer = i % 10 == 0 ? "081200000000" : "08123456789" + (i % 10);
            assertThat(client.createOrder(String.format("H-%03d", i), i % 2 == 0 ? "TSEL10" : "TSEL25", customer, null).status())
                    .isEqualTo(200);
            clock.advance(Duration.ofSeconds(i == 49 ? 3600 : 1));
        }
    }

    @AfterAll
    static void stop() {
        sandbox.close();
    }

    private static ObjectNode query() {
        return SandboxTestClient.MAPPER.createObjectNode();
    }

    private static List<String> refs(JsonNode data) {
        List<String> refs = new ArrayList<>();
        data.get("orders").forEach(o -> refs.add(o.get("ref_id").textValue()));
        return refs;
    }

    @Test
    void defaultPageIsTheNewestTwenty() {
        JsonNode data = client.history(null).data();
        assertThat(refs(data)).hasSize(20).startsWith("H-149", "H-148").endsWith("H-130");
        assertThat(data.get("pagination").get("total").intValue()).isEqualTo(150);
        assertThat(data.get("pagination").get("total_pages").intValue()).isEqualTo(8);
    }

    @Test
    void limitAbove100IsClampedAndPagesGoOn() {
        JsonNode data = client.history(query().put("limit", 500)).data();
        assertThat(data.get("pagination").get("limit").intValue()).isEqualTo(100);
        assertThat(refs(data)).hasSize(100);
        JsonNode second = client.history(query().put("limit", 100).put("page", 2)).data();
        assertThat(refs(second)).hasSize(50).endsWith("H-000");
        JsonNode beyond = client.history(query().put("limit", 100).put("page", 3)).data();
        assertThat(refs(beyond)).isEmpty();
        assertThat(beyond.get("pagination").get("total").intValue()).isEqualTo(150);
        assertThat(beyond.get("pagination").get("page").intValue()).isEqualTo(3);
    }

    @Test
    void filters() {
        JsonNode failed = client.history(query().put("status", "failed").put("limit", 100)).data();
        assertThat(failed.get("pagination").get("total").intValue()).isEqualTo(15);
        failed.get("orders").forEach(o -> assertThat(o.get("status").textValue()).isEqualTo("failed"));
        JsonNode sku = client.history(query().put("product_sku", "TSEL25").put("limit", 100)).data();
        assertThat(sku.get("pagination").get("total").intValue()).isEqualTo(75);
        JsonNode firstDay = client.history(query().put("start_date", "2026-11-20").put("end_date", "2026-11-20").put("limit", 100)).data();
        assertThat(firstDay.get("pagination").get("total").intValue()).isEqualTo(50);
        JsonNode secondDay = client.history(query().put("start_date", "2026-11-21")).data();
        assertThat(secondDay.get("pagination").get("total").intValue()).isEqualTo(100);
        JsonNode all = client.history(query().put("status", "all")).data();
        assertThat(all.get("pagination").get("total").intValue()).isEqualTo(150);
    }

    @Test
    void profileCountsOrders() {
        JsonNode profile = client.profile().data();
        assertThat(profile.get("total_orders").longValue()).isEqualTo(150);
        assertThat(profile.get("total_success").longValue()).isEqualTo(135);
        assertThat(profile.get("success_rate").decimalValue()).isEqualByComparingTo("90.00");
        assertThat(client.profile().body()).contains("\"success_rate\":90.00");
    }
}
