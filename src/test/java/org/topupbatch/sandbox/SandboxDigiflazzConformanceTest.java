package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.MutableClock;
import org.topupbatch.testing.Poll;

/**
 * The Digiflazz dialect over real HTTP, written from developer.digiflazz.com's buyer pages (URLs at each test):
 * the requests as the pages show them, the answers' field names and JSON types, and the rc codes of
 * https://developer.digiflazz.com/api/buyer/response-code.
 */
class SandboxDigiflazzConformanceTest {

    private static final JsonNodeType STRING = JsonNodeType.STRING;
    private static final JsonNodeType NUMBER = JsonNodeType.NUMBER;
    private static final JsonNodeType BOOLEAN = JsonNodeType.BOOLEAN;
    private static final Duration WAIT = Duration.ofSeconds(5);
    /** XL settles later (async in the catalog); FF100 at once; 0817... is an XL number. */
    private static final String XL = "XL10";
    private static final String XL_NUMBER = "081712345678";

    private SandboxProvider sandbox;
    private DigiflazzTestClient client;

    @BeforeEach
    void start() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(11L).setDialect(SandboxDialect.DIGIFLAZZ)
                .setSettleDelay(DurationRange.parse("300ms-400ms")), 0);
        client = new DigiflazzTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
    }

    /** Asserts exactly these fields with these JSON types; numbers of IDR are whole. */
    private static void assertShape(JsonNode node, Map<String, JsonNodeType> fields) {
        assertThat(node.isObject()).as("object: %s", node).isTrue();
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        assertThat(names).as("field names of %s", node).containsExactlyInAnyOrderElementsOf(fields.keySet());
        fields.forEach((name, type) -> assertThat(node.get(name).getNodeType()).as("type of %s in %s", name, node).isEqualTo(type));
    }

    private static final Map<String, JsonNodeType> TRANSACTION = Map.ofEntries(
            Map.entry("ref_id", STRING), Map.entry("customer_no", STRING), Map.entry("buyer_sku_code", STRING),
            Map.entry("message", STRING), Map.entry("status", STRING), Map.entry("rc", STRING), Map.entry("sn", STRING),
            Map.entry("buyer_last_saldo", NUMBER), Map.entry("price", NUMBER), Map.entry("tele", STRING),
            Map.entry("wa", STRING));

    private static JsonNode data(SandboxTestClient.Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.response().headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(answer.json().size()).as("only data at the top: %s", answer.body()).isEqualTo(1);
        return answer.data();
    }

    private long priceOf(String sku) {
        for (JsonNode p : data(client.priceList())) {
            if (p.get("buyer_sku_code").textValue().equals(sku)) {
                return p.get("price").longValue();
            }
        }
        throw new AssertionError("no " + sku + " in the price list");
    }

    private long ledgerCount(String refId) {
        return sandbox.ledger().stream().filter(e -> e.refId().equals(refId)).count();
    }

    // ---- https://developer.digiflazz.com/api/buyer/cek-saldo ----

    @Test
    void cekSaldoAnswersTheDepositUnderData() {
        JsonNode data = data(client.cekSaldo());
        assertShape(data, Map.of("deposit", NUMBER));
        assertThat(data.get("deposit").longValue()).isEqualTo(sandbox.balance()).isEqualTo(10_000_000L);
    }

    /**
     * The pages' own request examples: username "username" and sign 740b00a1b8784e028cc8078edf66d12b. The
     * pages give no key, so that sign cannot be reproduced (the same value stands on every page): for the sandbox
     * it is a wrong sign, rc 41, and the same request signed with the account's key is answered.
     */
    @Test
    void theDocumentsSampleRequestsAreReadAndTheirPlaceholderSignIsRefused() {
        sandbox.config().setUsername("username");
        String docSign = "740b00a1b8784e028cc8078edf66d12b";
        ObjectNode saldo = (ObjectNode) SandboxTestClient.MAPPER.createObjectNode()
                .put("cmd", "deposit").put("username", "username").put("sign", docSign);
        JsonNode refused = data(client.post("/v1/cek-saldo", saldo));
        assertShape(refused, Map.of("rc", STRING, "message", STRING));
        assertThat(refused.get("rc").textValue()).isEqualTo("41");

        ObjectNode topup = (ObjectNode) SandboxTestClient.MAPPER.createObjectNode()
                .put("username", "username").put("buyer_sku_code", "xld25").put("customer_no", "087800001233")
                .put("ref_id", "some1d").put("sign", docSign);
        JsonNode topupRefused = data(client.post("/v1/transaction", topup));
        assertThat(topupRefused.get("rc").textValue()).isEqualTo("41");
        assertThat(topupRefused.get("status").textValue()).isEqualTo("Gagal");
        assertThat(topupRefused.get("ref_id").textValue()).isEqualTo("some1d");

        DigiflazzTestClient docUser = new DigiflazzTestClient(sandbox.baseUrl(), "username", DigiflazzTestClient.KEY);
        saldo.put("sign", docUser.sign("depo"));
        assertThat(data(client.post("/v1/cek-saldo", saldo)).get("deposit").longValue()).isEqualTo(sandbox.balance());
        // the page's SKU xld25 is not in the sandbox's catalog: rc 43, nothing made
        topup.put("sign", docUser.sign("some1d"));
        assertThat(data(client.post("/v1/transaction", topup)).get("rc").textValue()).isEqualTo("43");
        assertThat(sandbox.ledger()).isEmpty();
    }

    @Test
    void aWrongSignIs41AWrongUsername42AndAWrongPayload40() {
        ObjectNode badSign = client.cekSaldoBody().put("sign", client.sign("deposit"));
        assertThat(data(client.post("/v1/cek-saldo", badSign)).get("rc").textValue()).isEqualTo("41");
        ObjectNode stranger = client.cekSaldoBody().put("username", "someoneelse");
        assertThat(data(client.post("/v1/cek-saldo", stranger)).get("rc").textValue()).isEqualTo("42");
        ObjectNode noCmd = client.cekSaldoBody();
        noCmd.remove("cmd");
        assertThat(data(client.post("/v1/cek-saldo", noCmd)).get("rc").textValue()).isEqualTo("40");
        ObjectNode numberSku = client.topupBody("P-1", "FF100", "123456789").put("buyer_sku_code", 100);
        JsonNode payload = data(client.post("/v1/transaction", numberSku));
        assertThat(payload.get("rc").textValue()).isEqualTo("40");
        assertThat(payload.get("message").textValue()).doesNotContain(DigiflazzTestClient.KEY);
        assertThat(sandbox.ledger()).isEmpty();
    }

    // ---- https://developer.digiflazz.com/api/buyer/daftar-harga/ ----

    @Test
    void thePriceListHasTheDocumentedFieldsFromTheCatalogAndItsKnobs() {
        sandbox.config().setUnavailable(List.of("FF100")).setPriceChange("FF50:+10%");
        JsonNode list = data(client.priceList());
        assertThat(list.isArray()).isTrue();
        assertThat(list.size()).isEqualTo(47);
        Map<String, JsonNodeType> fields = Map.ofEntries(Map.entry("product_name", STRING), Map.entry("category", STRING),
                Map.entry("brand", STRING), Map.entry("type", STRING), Map.entry("seller_name", STRING),
                Map.entry("price", NUMBER), Map.entry("buyer_sku_code", STRING), Map.entry("buyer_product_status", BOOLEAN),
                Map.entry("seller_product_status", BOOLEAN), Map.entry("unlimited_stock", BOOLEAN), Map.entry("stock", NUMBER),
                Map.entry("multi", BOOLEAN), Map.entry("start_cut_off", STRING), Map.entry("end_cut_off", STRING),
                Map.entry("desc", STRING));
        Map<String, JsonNode> bySku = new java.util.HashMap<>();
        for (JsonNode p : list) {
            assertShape(p, fields);
            bySku.put(p.get("buyer_sku_code").textValue(), p);
        }
        assertThat(bySku.get("FF100").get("buyer_product_status").booleanValue()).isFalse();  // the unavailable knob
        assertThat(bySku.get("FF2180").get("seller_product_status").booleanValue()).isFalse(); // the catalog's
        assertThat(bySku.get("FF355").get("buyer_product_status").booleanValue()).isTrue();
        assertThat(bySku.get("FF50").get("price").longValue()).isEqualTo(7300L * 110 / 100 * 95 / 100); // +10%, gold 95 %
        assertThat(bySku.get("XL10").get("category").textValue()).isEqualTo("Pulsa");

        ObjectNode filtered = client.priceListBody("prepaid").put("brand", "xl");
        assertThat(data(client.post("/v1/price-list", filtered))).hasSize(3);
        assertThat(data(client.post("/v1/price-list", client.priceListBody("pasca")))).isEmpty();
        ObjectNode wrongSign = client.priceListBody("prepaid").put("sign", client.sign("depo"));
        assertThat(data(client.post("/v1/price-list", wrongSign)).get("rc").textValue()).isEqualTo("41");
    }

    // ---- https://developer.digiflazz.com/api/buyer/topup/ and .../cek-status/ ----

    @Test
    void aTopupIsPendingThenSuccessAndTheSameRefIdIsItsStatusWithoutASecondDebit() {
        long price = priceOf(XL);
        JsonNode first = data(client.topup("DF-1", XL, XL_NUMBER));
        assertShape(first, TRANSACTION);
        assertThat(first.get("status").textValue()).isEqualTo("Pending");
        assertThat(first.get("rc").textValue()).isEqualTo("03");
        assertThat(first.get("price").longValue()).isEqualTo(price);
        assertThat(first.get("buyer_last_saldo").longValue()).isEqualTo(10_000_000L - price);
        assertThat(first.get("ref_id").textValue()).isEqualTo("DF-1");
        assertThat(first.get("buyer_sku_code").textValue()).isEqualTo(XL);
        assertThat(first.get("customer_no").textValue()).isEqualTo(XL_NUMBER);

        JsonNode settled = Poll.until("DF-1 settles", WAIT, () -> data(client.topup("DF-1", XL, XL_NUMBER)),
                d -> d.get("status").textValue().equals("Sukses"));
        assertShape(settled, TRANSACTION);
        assertThat(settled.get("rc").textValue()).isEqualTo("00");
        assertThat(settled.get("sn").textValue()).isNotEmpty();
        assertThat(sandbox.balance()).isEqualTo(10_000_000L - price);
        assertThat(ledgerCount("DF-1")).isEqualTo(1);
        // the same ref_id for another destination is not a status check
        assertThat(data(client.topup("DF-1", XL, "081799998888")).get("rc").textValue()).isEqualTo("49");
        assertThat(ledgerCount("DF-1")).isEqualTo(1);
    }

    @Test
    void anInstantTopupIsSuccessAtOnce() {
        JsonNode d = data(client.topup("DF-2", "FF100", "123456789"));
        assertThat(d.get("status").textValue()).isEqualTo("Sukses");
        assertThat(d.get("rc").textValue()).isEqualTo("00");
        assertThat(d.get("sn").textValue()).isNotEmpty();
    }

    @Test
    void aPriceAboveMaxPriceIsRefusedWithNothingCharged() {
        long price = priceOf("FF100");
        JsonNode refused = data(client.post("/v1/transaction",
                client.topupBody("DF-3", "FF100", "123456789").put("max_price", price - 1)));
        assertThat(refused.get("rc").textValue()).isEqualTo("69");
        assertThat(refused.get("status").textValue()).isEqualTo("Gagal");
        assertThat(sandbox.balance()).isEqualTo(10_000_000L);
        assertThat(sandbox.ledger()).isEmpty();
        JsonNode taken = data(client.post("/v1/transaction",
                client.topupBody("DF-3", "FF100", "123456789").put("max_price", price)));
        assertThat(taken.get("rc").textValue()).isEqualTo("00");
        JsonNode notInt = data(client.post("/v1/transaction",
                client.topupBody("DF-3b", "FF100", "123456789").put("max_price", "15000")));
        assertThat(notInt.get("rc").textValue()).isEqualTo("40");
    }

    @Test
    void aProductDownIs43WithNothingCharged() {
        sandbox.config().setUnavailable(List.of("FF100"));
        JsonNode refused = data(client.topup("DF-4", "FF100", "123456789"));
        assertThat(refused.get("rc").textValue()).isEqualTo("43");
        assertThat(sandbox.balance()).isEqualTo(10_000_000L);
        assertThat(sandbox.ledger()).isEmpty();
        assertThat(data(client.topup("DF-5", "NOSUCH", "123456789")).get("rc").textValue()).isEqualTo("43");
    }

    @Test
    void aBalanceTooLowIs44WithNothingCharged() {
        sandbox.config().setBalance(1000);
        JsonNode refused = data(client.topup("DF-6", "FF100", "123456789"));
        assertThat(refused.get("rc").textValue()).isEqualTo("44");
        assertThat(refused.get("buyer_last_saldo").longValue()).isEqualTo(1000);
        assertThat(sandbox.balance()).isEqualTo(1000);
        assertThat(sandbox.ledger()).isEmpty();
    }

    @Test
    void aWrongDestinationIs54AndFormsAFailedTransactionThatCostNothing() {
        JsonNode failed = data(client.topup("DF-7", "XL10", "08991234567")); // a TRI prefix for an XL product
        assertShape(failed, TRANSACTION);
        assertThat(failed.get("rc").textValue()).isEqualTo("54");
        assertThat(failed.get("status").textValue()).isEqualTo("Gagal");
        assertThat(sandbox.balance()).isEqualTo(10_000_000L);
        assertThat(ledgerCount("DF-7")).isEqualTo(1);
        assertThat(data(client.topup("DF-7", "XL10", "08991234567")).get("rc").textValue()).isEqualTo("54");
        assertThat(ledgerCount("DF-7")).isEqualTo(1);
    }

    /** https://developer.digiflazz.com/api/buyer/cek-status/: after 90 days a re-sent ref_id makes a new transaction. */
    @Test
    void afterNinetyDaysTheSameRefIdMakesANewTransaction() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        sandbox.setClock(clock);
        long price = priceOf("FF100");
        data(client.topup("DF-8", "FF100", "123456789"));
        clock.advance(Duration.ofDays(89));
        data(client.topup("DF-8", "FF100", "123456789"));
        assertThat(ledgerCount("DF-8")).isEqualTo(1);
        clock.advance(Duration.ofDays(2));
        JsonNode again = data(client.topup("DF-8", "FF100", "123456789"));
        assertThat(again.get("rc").textValue()).isEqualTo("00");
        assertThat(ledgerCount("DF-8")).isEqualTo(2);
        assertThat(sandbox.balance()).isEqualTo(10_000_000L - 2 * price);
    }

    @Test
    void theWindowIsAKnob() {
        sandbox.config().set("ref-id-reuse-after", "1s");
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        sandbox.setClock(clock);
        data(client.topup("DF-9", "FF100", "123456789"));
        clock.advance(Duration.ofSeconds(2));
        data(client.topup("DF-9", "FF100", "123456789"));
        assertThat(ledgerCount("DF-9")).isEqualTo(2);
    }

    /**
     * Digiflazz limits the full price list (rc 83, once every 5 minutes, docs/batch-files-and-reports.md#price-list): with the
     * price-list-interval knob set, a full list within it is refused and a list for one code is not.
     */
    @Test
    void aFullPriceListWithinTheIntervalIsRefusedWith83() {
        sandbox.config().set("price-list-interval", "5m");
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        sandbox.setClock(clock);
        assertThat(data(client.priceList()).isArray()).isTrue();
        clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        JsonNode refused = data(client.priceList());
        assertThat(refused.get("rc").textValue()).isEqualTo("83");
        assertThat(refused.get("message").textValue()).contains("limitasi pengecekan pricelist");
        assertThat(data(client.post("/v1/price-list", client.priceListBody("prepaid").put("code", "FF100")))).hasSize(1);
        clock.advance(Duration.ofSeconds(1));
        assertThat(data(client.priceList()).isArray()).as("the refusal did not move the interval").isTrue();
        sandbox.config().set("price-list-interval", "0");
        assertThat(data(client.priceList()).isArray()).isTrue();
    }

    @Test
    void theSeedDialectsPathsAreNotServedAndItsInspectionStillIs() {
        assertThat(client.post("/v1/check-balance", client.cekSaldoBody()).status()).isEqualTo(404);
        data(client.topup("DF-10", "FF100", "123456789"));
        SandboxTestClient.Answer ledger = client.get("/sandbox/ledger");
        assertThat(ledger.status()).isEqualTo(200);
        assertThat(ledger.json().get(0).get("ref_id").textValue()).isEqualTo("DF-10");
        SandboxTestClient.Answer config = client.get("/sandbox/config");
        assertThat(config.body()).doesNotContain(DigiflazzTestClient.KEY).contains("\"dialect\":\"digiflazz\"");
    }

    @Test
    void theRateLimitAnswers429() {
        sandbox.config().startRateLimitStorm(Duration.ofSeconds(30));
        SandboxTestClient.Answer answer = client.cekSaldo();
        assertThat(answer.status()).isEqualTo(429);
        assertThat(answer.data().get("rc").textValue()).isEqualTo("85");
    }

    @Test
    void theDialectKnobsAreReadAndCheckedLikeTheOthers() {
        SandboxConfig read = SandboxConfig.fromLookup(Map.of("topup.sandbox.dialect", "DIGIFLAZZ",
                "topup.sandbox.username", "shop01", "topup.sandbox.ref-id-reuse-after", "90d")::get);
        assertThat(read.dialect()).isEqualTo(SandboxDialect.DIGIFLAZZ);
        assertThat(read.username()).isEqualTo("shop01");
        assertThat(read.refIdReuseAfter()).isEqualTo(Duration.ofDays(90));
        assertThat(SandboxConfig.defaults().dialect()).isEqualTo(SandboxDialect.TOPUP);
        assertThat(SandboxConfig.defaults().describe()).containsEntry("dialect", "topup").containsKey("api-key");
        assertThat(read.describe()).doesNotContainKey("api-key").containsEntry("username", "shop01");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SandboxConfig.defaults().set("dialect", "xml"))
                .hasMessage("bad value 'xml' for topup.sandbox.dialect: expected topup or digiflazz");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SandboxConfig.defaults().set("ref-id-reuse-after", "0"))
                .hasMessageContaining("topup.sandbox.ref-id-reuse-after");
        // switched at run time, like every knob
        sandbox.config().set("dialect", "topup");
        assertThat(new SandboxTestClient(sandbox.baseUrl()).balance().status()).isEqualTo(200);
    }
}
