package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The view off /v1: ledger, stats and config over HTTP; price list per tier; the catalog's content. */
class SandboxInspectionTest {

    private SandboxProvider sandbox;
    private SandboxTestClient client;

    @BeforeEach
    void start() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(2L), 0);
        client = new SandboxTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
    }

    @Test
    void baseUrlIsLoopbackWithoutTrailingSlash() {
        assertThat(sandbox.baseUrl()).isEqualTo("http://127.0.0.1:" + sandbox.port());
    }

    @Test
    void ledgerAndStatsOverHttp() {
        client.createOrder("I-1", "ML86", "12345678", "1234");
        client.createOrder("I-2", "ML86", "12340000", "1234");
        SandboxTestClient.Answer ledger = client.get("/sandbox/ledger");
        assertThat(ledger.status()).isEqualTo(200);
        assertThat(ledger.json().isArray()).isTrue();
        assertThat(ledger.json()).hasSize(2);
        JsonNode failed = ledger.json().get(1);
        assertThat(failed.get("ref_id").textValue()).isEqualTo("I-2");
        assertThat(failed.get("status").textValue()).isEqualTo("failed");
        assertThat(failed.get("refunded").booleanValue()).isTrue();
        assertThat(failed.get("customer_no_zone").textValue()).isEqualTo("1234");
        SandboxTestClient.Answer stats = client.get("/sandbox/stats");
        assertThat(stats.json().get("requests_per_operation").get("create-order").longValue()).isEqualTo(2);
        assertThat(stats.json().get("total_requests").longValue()).isEqualTo(2);
        assertThat(stats.json().get("busiest_window").longValue()).isEqualTo(2);
    }

    @Test
    void configOverHttpChangesTheRunningSandbox() {
        SandboxTestClient.Answer changed = client.post("/sandbox/config",
                SandboxTestClient.MAPPER.createObjectNode().put("tier", "silver").put("balance", 12345).put("check-order", false));
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.data().get("tier").textValue()).isEqualTo("silver");
        assertThat(changed.body()).doesNotContain("s3cr3t");
        assertThat(sandbox.balance()).isEqualTo(12345);
        assertThat(client.balance().data().get("tier").textValue()).isEqualTo("silver");
        assertThat(client.checkOrder("X").status()).isEqualTo(404);
        // one bad knob changes nothing
        SandboxTestClient.Answer bad = client.post("/sandbox/config",
                SandboxTestClient.MAPPER.createObjectNode().put("tier", "basic").put("error-rate", 7));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("message").textValue()).contains("error-rate");
        assertThat(sandbox.config().tier()).isEqualTo(SandboxTier.SILVER);
    }

    @Test
    void pricesPerTier() {
        long basic = priceOf("ML86", SandboxTier.BASIC);
        assertThat(priceOf("ML86", SandboxTier.SILVER)).isEqualTo(basic * 98 / 100);
        assertThat(priceOf("ML86", SandboxTier.GOLD)).isEqualTo(basic * 95 / 100);
        // and an order pays the tier's price
        sandbox.config().setTier(SandboxTier.SILVER);
        assertThat(client.createOrder("P-1", "ML86", "12345678", "1234").data().get("price").longValue()).isEqualTo(basic * 98 / 100);
    }

    private long priceOf(String sku, SandboxTier tier) {
        sandbox.config().setTier(tier);
        for (JsonNode p : client.priceList().data()) {
            if (p.get("product_sku").textValue().equals(sku)) {
                return p.get("price").longValue();
            }
        }
        throw new AssertionError(sku + " not listed");
    }

    @Test
    void priceListFilters() {
        SandboxTestClient.Answer games = client.post("/v1/price-list", SandboxTestClient.signed("pricelist").put("category", "pulsa"));
        assertThat(games.data()).isNotEmpty();
        games.data().forEach(p -> assertThat(p.get("category").textValue()).isEqualTo("pulsa"));
        SandboxTestClient.Answer brand = client.post("/v1/price-list", SandboxTestClient.signed("pricelist").put("brand", "GENSHIN IMPACT"));
        assertThat(brand.data()).isNotEmpty();
        brand.data().forEach(p -> assertThat(p.get("brand").textValue()).isEqualTo("GENSHIN IMPACT"));
    }

    @Test
    void pricesRiseOnCommandInTheListAndInNewOrders() {
        long before = priceOf("ML86", SandboxTier.GOLD);
        long other = priceOf("FF100", SandboxTier.GOLD);
        SandboxTestClient.Answer changed = client.post("/sandbox/config",
                SandboxTestClient.MAPPER.createObjectNode().put("price-change", "ML86:+30%"));
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.data().get("price-change").textValue()).isEqualTo("ML86:+30%");
        long risen = priceOf("ML86", SandboxTier.GOLD);
        assertThat(risen).isGreaterThan(before * 129 / 100).isLessThan(before * 131 / 100);
        assertThat(priceOf("FF100", SandboxTier.GOLD)).isEqualTo(other);
        assertThat(client.createOrder("R-1", "ML86", "12345678", "1234").data().get("price").longValue()).isEqualTo(risen);
        sandbox.config().set("price-change", "+10%");
        assertThat(priceOf("FF100", SandboxTier.GOLD)).isGreaterThan(other);
        sandbox.config().set("price-change", "");
        assertThat(priceOf("ML86", SandboxTier.GOLD)).isEqualTo(before);
        SandboxTestClient.Answer bad = client.post("/sandbox/config",
                SandboxTestClient.MAPPER.createObjectNode().put("price-change", "ML86 up a lot"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("message").textValue()).contains("price-change");
    }

    @Test
    void productsGoOutOfStockOnCommandAndComeBack() {
        assertThat(client.post("/sandbox/config", SandboxTestClient.MAPPER.createObjectNode().put("unavailable", "ML86"))
                .status()).isEqualTo(200);
        assertThat(statusOf("ML86")).isFalse();
        assertThat(statusOf("FF100")).isTrue();
        SandboxTestClient.Answer refused = client.createOrder("U-1", "ML86", "12345678", "1234");
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.code()).isEqualTo("PRODUCT_UNAVAILABLE");
        assertThat(client.get("/sandbox/ledger").json()).isEmpty();
        sandbox.config().set("unavailable", "");
        assertThat(statusOf("ML86")).isTrue();
        assertThat(client.createOrder("U-2", "ML86", "12345678", "1234").status()).isEqualTo(200);
    }

    private boolean statusOf(String sku) {
        for (JsonNode p : client.priceList().data()) {
            if (p.get("product_sku").textValue().equals(sku)) {
                return p.get("status").booleanValue();
            }
        }
        throw new AssertionError(sku + " not listed");
    }

    @Test
    void catalogHasTheAgreedShape() {
        SandboxCatalog catalog = SandboxCatalog.load(SandboxTestClient.MAPPER);
        assertThat(catalog.all()).hasSizeGreaterThanOrEqualTo(30);
        assertThat(catalog.all()).extracting(SandboxProduct::brand).contains("MOBILE LEGENDS", "GENSHIN IMPACT", "FREE FIRE",
                "PUBG MOBILE", "VALORANT", "GOOGLE PLAY", "STEAM", "TELKOMSEL", "INDOSAT", "XL", "TRI", "SMARTFREN");
        assertThat(catalog.all()).filteredOn(p -> !p.available()).isNotEmpty();
        assertThat(catalog.all()).filteredOn(p -> p.brand().equals("GENSHIN IMPACT") || p.brand().equals("STEAM"))
                .allMatch(SandboxProduct::async);
        assertThat(catalog.all()).filteredOn(SandboxProduct::async).extracting(SandboxProduct::category).contains("pulsa");
        assertThat(catalog.all()).allMatch(p -> p.sellingPrice() > p.basicPrice());
    }
}
