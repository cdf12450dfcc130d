package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.MutableClock;
import org.topupbatch.testing.Poll;

/**
 * The acts on the account that reconciliation must find, over real HTTP: a deposit, an order by another
 * client of the same api_key, a refund after the fact; and what check-order and the order history show of them.
 */
class SandboxActsTest {

    private static final Duration WAIT = Duration.ofSeconds(3);
    private static final String WEBHOOK_SECRET = "whsec-demo-4Tq8Lm";

    private WebhookReceiver receiver;
    private SandboxProvider sandbox;
    private SandboxTestClient client;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        receiver = new WebhookReceiver(0);
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(5L)
                .setSettleDelay(DurationRange.parse("100ms")).setWebhookUrl(receiver.url()), 0);
        client = new SandboxTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
        receiver.close();
    }

    private static ObjectNode body() {
        return SandboxTestClient.MAPPER.createObjectNode();
    }

    private long balanceOverV1() {
        SandboxTestClient.Answer balance = client.balance();
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        return balance.data().get("balance").longValue();
    }

    private static ObjectNode foreign(String refId, String sku, String customerNo, String zone) {
        ObjectNode body = body().put("ref_id", refId).put("product_sku", sku).put("customer_no", customerNo);
        if (zone != null) {
            body.put("customer_no_zone", zone);
        }
        return body;
    }

    private JsonNode historyEntry(String refId) {
        for (JsonNode o : client.history(body().put("limit", 100)).data().get("orders")) {
            if (o.get("ref_id").textValue().equals(refId)) {
                return o;
            }
        }
        return null;
    }

    private List<String> historyRefs(ObjectNode query) {
        SandboxTestClient.Answer history = client.history(query);
        assertThat(history.status()).as(history.body()).isEqualTo(200);
        List<String> refs = new ArrayList<>();
        history.data().get("orders").forEach(o -> refs.add(o.get("ref_id").textValue()));
        return refs;
    }

    /** A refusal of an act: the given status, the provider's error envelope, one line, no stack trace. */
    private static void assertRefused(SandboxTestClient.Answer answer, int status, String code, String messagePart) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.json()).as(answer.body()).isNotNull();
        assertThat(answer.json().get("success").booleanValue()).isFalse();
        assertThat(answer.code()).isEqualTo(code);
        String message = answer.json().get("message").textValue();
        assertThat(message).contains(messagePart).doesNotContain("\n").doesNotContain("Exception");
        assertThat(answer.body()).doesNotContain("\tat ").doesNotContain("org.topupbatch");
    }

    // ---- deposit ----

    @Test
    void aDepositMovesTheBalanceExactlyAndIsNoOrder() {
        long before = balanceOverV1();
        SandboxStats statsBefore = sandbox.stats();
        SandboxTestClient.Answer deposit = client.post("/sandbox/deposit", body().put("amount", 500_000));
        assertThat(deposit.status()).as(deposit.body()).isEqualTo(200);
        assertThat(deposit.json().get("success").booleanValue()).isTrue();
        assertThat(deposit.data().get("amount").longValue()).isEqualTo(500_000);
        assertThat(deposit.data().get("balance_before").longValue()).isEqualTo(before);
        assertThat(deposit.data().get("balance_after").longValue()).isEqualTo(before + 500_000);
        assertThat(deposit.data().get("at").textValue()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(sandbox.stats()).as("an act is no request of our client").isEqualTo(statsBefore);
        assertThat(balanceOverV1()).isEqualTo(before + 500_000);

        Deposit java = sandbox.deposit(1_234);
        assertThat(java.balanceBefore()).isEqualTo(before + 500_000);
        assertThat(balanceOverV1()).isEqualTo(before + 501_234);
        assertThat(sandbox.balance()).isEqualTo(before + 501_234);

        // not an order: no ledger entry, no history entry, no webhook
        assertThat(sandbox.ledger()).isEmpty();
        assertThat(client.get("/sandbox/ledger").json()).isEmpty();
        assertThat(client.history(null).data().get("pagination").get("total").intValue()).isZero();
        assertThat(client.profile().data().get("total_orders").longValue()).isZero();
        SandboxTestClient.Answer deposits = client.get("/sandbox/deposits");
        assertThat(deposits.status()).isEqualTo(200);
        assertThat(deposits.json()).hasSize(2);
        assertThat(deposits.json().get(0).get("amount").longValue()).isEqualTo(500_000);
        assertThat(deposits.json().get(1).get("amount").longValue()).isEqualTo(1_234);
        assertThat(deposits.json().get(1).get("balance_after").longValue()).isEqualTo(before + 501_234);
        assertThat(sandbox.deposits()).extracting(Deposit::amount).containsExactly(500_000L, 1_234L);
        assertThat(receiver.deliveries()).isEmpty();
    }

    @Test
    void aBadDepositIsRefusedWith400AndChangesNothing() {
        long before = sandbox.balance();
        assertRefused(client.post("/sandbox/deposit", body().put("amount", 0)), 400, "INVALID_REQUEST", "amount");
        assertRefused(client.post("/sandbox/deposit", body().put("amount", -500)), 400, "INVALID_REQUEST", "amount");
        assertRefused(client.post("/sandbox/deposit", body().put("amount", "500000")), 400, "INVALID_REQUEST", "amount");
        assertRefused(client.post("/sandbox/deposit", body().put("amount", 12.5)), 400, "INVALID_REQUEST", "amount");
        assertRefused(client.post("/sandbox/deposit", body().put("sum", 500)), 400, "INVALID_REQUEST", "amount is required");
        assertRefused(client.postRaw("/sandbox/deposit", "{\"amount\": 99999999999999999999999}"), 400, "INVALID_REQUEST", "amount");
        assertRefused(client.postRaw("/sandbox/deposit", "{\"amount\": "), 400, "INVALID_REQUEST", "not valid JSON");
        assertRefused(client.postRaw("/sandbox/deposit", "[500000]"), 400, "INVALID_REQUEST", "JSON object");
        assertRefused(client.postRaw("/sandbox/deposit", ""), 400, "INVALID_REQUEST", "JSON object");
        assertRefused(client.post("/sandbox/deposit", body().put("amount", Long.MAX_VALUE)), 400, "INVALID_REQUEST", "overflow");
        assertThat(client.get("/sandbox/deposit").status()).isEqualTo(405);
        assertThat(sandbox.balance()).isEqualTo(before);
        assertThat(sandbox.deposits()).isEmpty();
        assertThatThrownBy(() -> sandbox.deposit(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("amount");
    }

    // ---- an order by another client ----

    @Test
    void aForeignOrderIsChargedListedAndNotCountedAsOurs() {
        long before = balanceOverV1();
        SandboxStats statsBefore = sandbox.stats();
        SandboxTestClient.Answer placed = client.post("/sandbox/foreign-order", foreign("OTHER-1", "ML86", "12345678", "1234"));
        assertThat(placed.status()).as(placed.body()).isEqualTo(200);
        JsonNode order = placed.data();
        long price = order.get("price").longValue();
        assertThat(price).isPositive();
        assertThat(order.get("status").textValue()).isEqualTo("success");
        assertThat(order.get("customer_no_zone").textValue()).isEqualTo("1234");
        assertThat(order.get("balance_before").longValue()).isEqualTo(before);
        assertThat(order.get("balance_after").longValue()).isEqualTo(before - price);
        assertThat(sandbox.stats()).as("our client's counters and rate-limit window").isEqualTo(statsBefore);

        assertThat(balanceOverV1()).isEqualTo(before - price);
        JsonNode listed = historyEntry("OTHER-1");
        assertThat(listed).as("in /v1/order-history").isNotNull();
        assertThat(listed.get("price").longValue()).isEqualTo(price);
        assertThat(listed.get("status").textValue()).isEqualTo("success");
        assertThat(listed.get("product_sku").textValue()).isEqualTo("ML86");
        assertThat(sandbox.ledger()).extracting(LedgerEntry::refId).containsExactly("OTHER-1");
        assertThat(client.get("/sandbox/ledger").json().get(0).get("ref_id").textValue()).isEqualTo("OTHER-1");
        JsonNode checked = client.checkOrder("OTHER-1").data();
        assertThat(checked.get("balance_before").longValue()).isEqualTo(before);
        assertThat(checked.get("balance_after").longValue()).isEqualTo(before - price);

        // the account's webhook goes out for it, as for every order of the account
        receiver.await(d -> d.stream().anyMatch(x -> x.text().contains("\"ref_id\":\"OTHER-1\"")), WAIT);

        // the same ref_id space as our client's orders
        assertThat(client.createOrder("OTHER-1", "ML86", "12345678", "1234").code()).isEqualTo("DUPLICATE_REF_ID");
        assertThat(client.createOrder("OURS-1", "ML86", "12345678", "1234").status()).isEqualTo(200);
        assertRefused(client.post("/sandbox/foreign-order", foreign("OURS-1", "ML86", "12345678", "1234")),
                409, "DUPLICATE_REF_ID", "OURS-1");
        assertRefused(client.post("/sandbox/foreign-order", foreign("OTHER-1", "ML86", "12345678", "1234")),
                409, "DUPLICATE_REF_ID", "OTHER-1");

        // the Java act
        LedgerEntry java = sandbox.foreignOrder("OTHER-2", "TSEL10", "081234567890", null);
        assertThat(java.status()).isEqualTo("success");
        assertThat(historyEntry("OTHER-2")).isNotNull();
        assertThatThrownBy(() -> sandbox.foreignOrder("OTHER-2", "TSEL10", "081234567890", null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("DUPLICATE_REF_ID");
        assertThat(sandbox.ledger()).extracting(LedgerEntry::refId).containsExactly("OTHER-1", "OURS-1", "OTHER-2");
    }

    @Test
    void foreignOrdersAreNotHeldByOurRateLimit() {
        sandbox.config().setTier(SandboxTier.BASIC); // 60 a minute for our client
        for (int i = 0; i < 70; i++) {
            assertThat(sandbox.foreignOrder("BULK-" + i, "TSEL10", "081234567890", null).status()).isEqualTo("success");
        }
        SandboxStats stats = sandbox.stats();
        assertThat(stats.busiestWindow()).isZero();
        assertThat(stats.totalRequests()).isZero();
        assertThat(client.balance().status()).as("our client still has its whole minute").isEqualTo(200);
        assertThat(client.history(null).data().get("pagination").get("total").intValue()).isEqualTo(70);
    }

    @Test
    void anAsyncForeignOrderSettlesLaterWithItsWebhook() {
        SandboxTestClient.Answer placed = client.post("/sandbox/foreign-order", foreign("OTHER-GI", "GI60", "812345678", "asia"));
        assertThat(placed.status()).as(placed.body()).isEqualTo(200);
        assertThat(placed.data().get("status").textValue()).isEqualTo("pending");
        Poll.until("OTHER-GI settles", WAIT, () -> client.checkOrder("OTHER-GI").data().get("status").textValue(),
                "success"::equals);
        receiver.await(d -> d.stream().anyMatch(x -> x.text().contains("\"ref_id\":\"OTHER-GI\"")
                && x.text().contains("\"status\":\"success\"")), WAIT);
    }

    @Test
    void aBadForeignOrderIsRefusedAndChargesNothing() {
        long before = sandbox.balance();
        assertRefused(client.post("/sandbox/foreign-order", body().put("product_sku", "ML86").put("customer_no", "12345678")),
                400, "INVALID_REQUEST", "ref_id is required");
        assertRefused(client.post("/sandbox/foreign-order", body().put("ref_id", "F-1").put("product_sku", "ML86")
                .put("customer_no", 12345678)), 400, "INVALID_REQUEST", "customer_no must be a string");
        assertRefused(client.post("/sandbox/foreign-order", foreign("bad ref id", "ML86", "12345678", "1234")),
                400, "INVALID_REF_ID", "ref_id");
        assertRefused(client.post("/sandbox/foreign-order", foreign("F-2", "ML86", "12345678", null)),
                400, "ZONE_REQUIRED", "customer_no_zone");
        assertRefused(client.post("/sandbox/foreign-order", foreign("F-3", "NOPE1", "12345678", null)),
                404, "PRODUCT_NOT_FOUND", "NOPE1");
        assertRefused(client.postRaw("/sandbox/foreign-order", "ref_id=F-4"), 400, "INVALID_REQUEST", "not valid JSON");
        assertThat(sandbox.balance()).isEqualTo(before);
        assertThat(sandbox.ledger()).isEmpty();
        assertThatThrownBy(() -> sandbox.foreignOrder(null, "ML86", "12345678", "1234"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ref_id");
        assertThatThrownBy(() -> sandbox.foreignOrder("F-5", "NOPE1", "12345678", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PRODUCT_NOT_FOUND");
    }

    // ---- a refund after the fact ----

    @Test
    void aRefundTurnsASuccessIntoFailedEverywhereAndReturnsThePrice() {
        JsonNode created = client.createOrder("R-1", "ML86", "12345678", "1234").data();
        assertThat(created.get("status").textValue()).isEqualTo("success");
        long price = created.get("price").longValue();
        long createdBefore = created.get("balance_before").longValue();
        long createdAfter = created.get("balance_after").longValue();
        receiver.await(d -> d.size() == 1, WAIT);
        long before = balanceOverV1();

        SandboxTestClient.Answer refunded = client.post("/sandbox/refund", body().put("ref_id", "R-1"));
        assertThat(refunded.status()).as(refunded.body()).isEqualTo(200);
        assertThat(refunded.data().get("status").textValue()).isEqualTo("failed");
        assertThat(refunded.data().get("refunded").booleanValue()).isTrue();
        assertThat(refunded.data().get("serial_number").isNull()).isTrue();

        assertThat(balanceOverV1()).isEqualTo(before + price);
        JsonNode checked = client.checkOrder("R-1").data();
        assertThat(checked.get("status").textValue()).isEqualTo("failed");
        assertThat(checked.get("serial_number").isNull()).isTrue();
        assertThat(checked.get("message").textValue()).contains("refunded by the provider");
        assertThat(checked.get("balance_before").longValue()).as("as at creation").isEqualTo(createdBefore);
        assertThat(checked.get("balance_after").longValue()).as("as at creation").isEqualTo(createdAfter);
        assertThat(historyEntry("R-1").get("status").textValue()).isEqualTo("failed");
        assertThat(historyRefs(body().put("status", "failed"))).containsExactly("R-1");
        assertThat(historyRefs(body().put("status", "success"))).isEmpty();
        LedgerEntry entry = sandbox.ledger().get(0);
        assertThat(entry.status()).isEqualTo("failed");
        assertThat(entry.refunded()).isTrue();
        assertThat(client.profile().data().get("total_success").longValue()).isZero();

        // an order.updated webhook with status failed, signed as any
        List<WebhookReceiver.Delivery> got = receiver.await(d -> d.size() == 2, WAIT);
        JsonNode event = readJson(got.get(1).text());
        assertThat(event.get("event").textValue()).isEqualTo("order.updated");
        assertThat(event.get("data").get("ref_id").textValue()).isEqualTo("R-1");
        assertThat(event.get("data").get("status").textValue()).isEqualTo("failed");
        assertThat(event.get("signature").textValue()).isEqualTo(SandboxTestClient.md5(WEBHOOK_SECRET + "R-1" + "failed"));

        // once only
        assertRefused(client.post("/sandbox/refund", body().put("ref_id", "R-1")), 409, "ORDER_NOT_REFUNDABLE", "failed");
        assertThat(balanceOverV1()).isEqualTo(before + price);
    }

    @Test
    void onlyASuccessOrderCanBeRefunded() {
        long start = sandbox.balance();
        assertRefused(client.post("/sandbox/refund", body().put("ref_id", "NOBODY")), 400, "ORDER_NOT_FOUND", "NOBODY");
        assertRefused(client.post("/sandbox/refund", body()), 400, "INVALID_REQUEST", "ref_id is required");
        assertRefused(client.post("/sandbox/refund", body().put("ref_id", 7)), 400, "INVALID_REQUEST", "ref_id must be a string");
        assertRefused(client.postRaw("/sandbox/refund", "nope"), 400, "INVALID_REQUEST", "not valid JSON");
        // failed at creation (customer ending 0000): already refunded
        assertThat(client.createOrder("R-F", "ML86", "12340000", "1234").data().get("status").textValue()).isEqualTo("failed");
        assertRefused(client.post("/sandbox/refund", body().put("ref_id", "R-F")), 409, "ORDER_NOT_REFUNDABLE", "failed");
        // pending: not delivered yet
        sandbox.config().setSettleDelay(DurationRange.parse("1m"));
        assertThat(client.createOrder("R-P", "GI60", "812345678", "asia").data().get("status").textValue()).isEqualTo("pending");
        assertRefused(client.post("/sandbox/refund", body().put("ref_id", "R-P")), 409, "ORDER_NOT_REFUNDABLE", "pending");
        long gi60 = sandbox.ledger().get(1).price();
        assertThat(sandbox.balance()).isEqualTo(start - gi60);
        assertThatThrownBy(() -> sandbox.refund("NOBODY")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ORDER_NOT_FOUND");
        assertThatThrownBy(() -> sandbox.refund("R-P")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ORDER_NOT_REFUNDABLE");
    }

    @Test
    void aForeignOrderCanBeRefundedByJava() {
        LedgerEntry order = sandbox.foreignOrder("OTHER-R", "FF100", "123456789", null);
        assertThat(order.status()).isEqualTo("success");
        long before = sandbox.balance();
        LedgerEntry refunded = sandbox.refund("OTHER-R");
        assertThat(refunded.status()).isEqualTo("failed");
        assertThat(refunded.serialNumber()).isNull();
        assertThat(refunded.balanceBefore()).isEqualTo(order.balanceBefore());
        assertThat(refunded.balanceAfter()).isEqualTo(order.balanceAfter());
        assertThat(refunded.settledAt()).isEqualTo(order.settledAt());
        assertThat(sandbox.balance()).isEqualTo(before + order.price());
        assertThat(client.checkOrder("OTHER-R").data().get("status").textValue()).isEqualTo("failed");
    }

    // ---- check-order balances and the order history's filters, with every kind of order ----

    @Test
    void checkOrderCarriesTheBalancesAsAtCreationForEveryKindOfOrder() {
        sandbox.config().setSettleDelay(DurationRange.parse("1m"));
        long start = sandbox.balance();
        client.createOrder("C-1", "ML86", "12345678", "1234");                // ours, success
        sandbox.foreignOrder("C-2", "TSEL10", "081234567890", null);           // foreign, success
        client.createOrder("C-3", "ML86", "12340000", "1234");                // ours, failed at creation
        client.post("/sandbox/foreign-order", foreign("C-4", "GI60", "812345678", "asia")); // foreign, pending
        sandbox.deposit(100_000);
        client.createOrder("C-5", "FF100", "123456789", null);                // after a deposit
        sandbox.refund("C-1");                                                // refunded later
        List<LedgerEntry> ledger = sandbox.ledger();
        assertThat(ledger).hasSize(5);
        long expectedBefore = start;
        for (LedgerEntry e : ledger) {
            if (e.refId().equals("C-5")) {
                expectedBefore += 100_000;
            }
            JsonNode checked = client.checkOrder(e.refId()).data();
            long charged = e.refId().equals("C-3") ? 0 : e.price();
            assertThat(checked.get("balance_before").longValue()).as(e.refId() + " balance_before").isEqualTo(expectedBefore);
            assertThat(checked.get("balance_after").longValue()).as(e.refId() + " balance_after").isEqualTo(expectedBefore - charged);
            assertThat(checked.get("price").longValue()).isEqualTo(e.price());
            expectedBefore -= charged;
        }
        long c1 = ledger.get(0).price();
        assertThat(sandbox.balance()).isEqualTo(expectedBefore + c1);
    }

    @Test
    void historyFiltersWorkOnUtcDaysAndCountEveryKindOfOrder() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-20T23:59:58Z"));
        sandbox.setClock(clock);
        client.createOrder("D-1", "ML86", "12345678", "1234");               // 2026-11-20 23:59:58Z
        clock.advance(Duration.ofSeconds(1));
        sandbox.foreignOrder("D-2", "TSEL10", "081234567890", null);          // 2026-11-20 23:59:59Z
        clock.advance(Duration.ofSeconds(1));
        client.post("/sandbox/foreign-order", foreign("D-3", "ML86", "87654321", "99")); // 2026-11-21 00:00:00Z
        clock.advance(Duration.ofSeconds(1));
        client.createOrder("D-4", "TSEL10", "081200000000", null);           // failed, 2026-11-21
        clock.advance(Duration.ofSeconds(1));
        client.createOrder("D-5", "ML86", "11112222", "1");                  // 2026-11-21
        sandbox.refund("D-3");

        assertThat(historyRefs(body().put("start_date", "2026-11-20").put("end_date", "2026-11-20"))).containsExactly("D-2", "D-1");
        assertThat(historyRefs(body().put("start_date", "2026-11-21"))).containsExactly("D-5", "D-4", "D-3");
        assertThat(historyRefs(body().put("end_date", "2026-11-20"))).containsExactly("D-2", "D-1");
        assertThat(historyRefs(body().put("start_date", "2026-11-22"))).isEmpty();
        assertThat(historyRefs(body().put("status", "failed"))).containsExactly("D-4", "D-3");
        assertThat(historyRefs(body().put("status", "success").put("product_sku", "ML86"))).containsExactly("D-5", "D-1");
        assertThat(historyRefs(body().put("status", "failed").put("product_sku", "ML86").put("start_date", "2026-11-21")))
                .containsExactly("D-3");
        JsonNode page2 = client.history(body().put("limit", 2).put("page", 2)).data();
        assertThat(page2.get("orders")).extracting(o -> o.get("ref_id").textValue()).containsExactly("D-3", "D-2");
        assertThat(page2.get("pagination").get("total").intValue()).isEqualTo(5);
        assertThat(page2.get("pagination").get("total_pages").intValue()).isEqualTo(3);
        assertThat(page2.get("pagination").get("limit").intValue()).isEqualTo(2);
        JsonNode filtered = client.history(body().put("product_sku", "ML86").put("limit", 1).put("page", 3)).data();
        assertThat(filtered.get("orders")).extracting(o -> o.get("ref_id").textValue()).containsExactly("D-1");
        assertThat(filtered.get("pagination").get("total").intValue()).isEqualTo(3);
        assertThat(filtered.get("pagination").get("total_pages").intValue()).isEqualTo(3);
        assertThat(client.history(body().put("limit", 1000)).data().get("pagination").get("limit").intValue()).isEqualTo(100);
    }

    // ---- kept across a restart ----

    @Test
    void depositsAndRefundsOutliveARestartWithAStateFile() {
        Path state = dir.resolve("state.json");
        long balance;
        try (SandboxProvider first = SandboxProvider.start(SandboxConfig.defaults().setSeed(6L).setStateFile(state), 0)) {
            first.deposit(250_000);
            first.foreignOrder("S-1", "TSEL10", "081234567890", null);
            first.refund("S-1");
            balance = first.balance();
        }
        try (SandboxProvider second = SandboxProvider.start(SandboxConfig.defaults().setSeed(6L).setStateFile(state), 0)) {
            assertThat(second.balance()).isEqualTo(balance);
            assertThat(second.deposits()).extracting(Deposit::amount).containsExactly(250_000L);
            assertThat(second.ledger()).singleElement().satisfies(e -> {
                assertThat(e.status()).isEqualTo("failed");
                assertThat(e.refunded()).isTrue();
            });
        }
    }

    private static JsonNode readJson(String text) {
        try {
            return SandboxTestClient.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new AssertionError(text, e);
        }
    }
}
