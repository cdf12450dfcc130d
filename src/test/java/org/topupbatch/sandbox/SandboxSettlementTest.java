package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BooleanSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Async settlement, failures with refunds, and webhooks as the README describes them. */
class SandboxSettlementTest {

    private SandboxProvider sandbox;
    private WebhookReceiver receiver;
    private SandboxTestClient client;

    private void start(int receiverFailsFirst) throws Exception {
        receiver = new WebhookReceiver(receiverFailsFirst);
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(5L)
                .setSettleDelay(DurationRange.parse("100ms-300ms")).setWebhookUrl(receiver.url()), 0);
        client = new SandboxTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
        receiver.close();
    }

    private static String hmac(byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SandboxTestClient.SECRET.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(body));
    }

    private static void waitFor(BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(5);
        while (!condition.getAsBoolean() && Instant.now().isBefore(deadline)) {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as("condition within 5 s").isTrue();
    }

    @Test
    void asyncOrderSettlesToSuccessAndSendsASignedWebhook() throws Exception {
        start(0);
        long before = sandbox.balance();
        JsonNode order = client.createOrder("S-1", "GI60", "812345678", "asia").data();
        assertThat(order.get("status").textValue()).isEqualTo("pending");
        long price = order.get("price").longValue();
        assertThat(sandbox.balance()).isEqualTo(before - price);

        List<WebhookReceiver.Delivery> got = receiver.await(d -> !d.isEmpty(), Duration.ofSeconds(5));
        assertThat(got).hasSize(1);
        WebhookReceiver.Delivery delivery = got.get(0);
        assertThat(delivery.signature()).isEqualTo(hmac(delivery.body()));
        assertThat(delivery.eventId()).isNotBlank();
        assertThat(delivery.contentType()).startsWith("application/json");
        JsonNode event = SandboxTestClient.MAPPER.readTree(delivery.body());
        assertThat(event.get("event").textValue()).isEqualTo("order.status");
        assertThat(event.get("ref_id").textValue()).isEqualTo("S-1");
        assertThat(event.get("product_sku").textValue()).isEqualTo("GI60");
        assertThat(event.get("customer_no").textValue()).isEqualTo("812345678");
        assertThat(event.get("status").textValue()).isEqualTo("success");
        assertThat(event.get("serial_number").isTextual()).isTrue();
        assertThat(event.get("price").isIntegralNumber()).isTrue();
        assertThat(event.get("price").longValue()).isEqualTo(price);
        assertThat(event.get("message").isTextual()).isTrue();
        assertThat(Instant.parse(event.get("timestamp").textValue())).isNotNull();

        JsonNode polled = client.checkOrder("S-1").data();
        assertThat(polled.get("status").textValue()).isEqualTo("success");
        assertThat(polled.get("serial_number").textValue()).isEqualTo(event.get("serial_number").textValue());
        assertThat(polled.get("balance_after").longValue()).as("as at creation").isEqualTo(before - price);
        LedgerEntry entry = sandbox.ledger().get(0);
        assertThat(entry.status()).isEqualTo("success");
        assertThat(entry.settledAt()).isNotNull();
        assertThat(entry.refunded()).isFalse();
        assertThat(sandbox.balance()).isEqualTo(before - price);
    }

    @Test
    void asyncOrderEndingFailedIsRefunded() throws Exception {
        start(0);
        long before = sandbox.balance();
        JsonNode order = client.createOrder("F-1", "XL10", "081700000000", null).data();
        assertThat(order.get("status").textValue()).isEqualTo("pending");
        assertThat(sandbox.balance()).isEqualTo(before - order.get("price").longValue());
        waitFor(() -> sandbox.ledger().get(0).status().equals("failed"));
        LedgerEntry entry = sandbox.ledger().get(0);
        assertThat(entry.refunded()).isTrue();
        assertThat(entry.serialNumber()).isNull();
        assertThat(sandbox.balance()).isEqualTo(before);
        assertThat(client.balance().data().get("balance").longValue()).isEqualTo(before);
        JsonNode event = SandboxTestClient.MAPPER.readTree(
                receiver.await(d -> !d.isEmpty(), Duration.ofSeconds(5)).get(0).body());
        assertThat(event.get("status").textValue()).isEqualTo("failed");
        assertThat(event.get("serial_number").isNull()).isTrue();
        JsonNode history = client.history(null).data().get("orders").get(0);
        assertThat(history.get("status").textValue()).isEqualTo("failed");
    }

    @Test
    void instantOrderFailsAtCreationWithBalanceUnchanged() throws Exception {
        start(0);
        long before = sandbox.balance();
        SandboxTestClient.Answer answer = client.createOrder("F-2", "ML86", "12340000", "1234");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("success").booleanValue()).isTrue();
        JsonNode order = answer.data();
        assertThat(order.get("status").textValue()).isEqualTo("failed");
        assertThat(order.get("balance_after").longValue()).isEqualTo(order.get("balance_before").longValue());
        assertThat(order.get("price").longValue()).isPositive();
        assertThat(sandbox.balance()).isEqualTo(before);
        assertThat(sandbox.ledger().get(0).refunded()).isTrue();
        // Valorant: the digits of the Riot ID decide, too
        assertThat(client.createOrder("F-3", "VAL475", "Loser#0000", null).data().get("status").textValue()).isEqualTo("failed");
        assertThat(receiver.await(d -> d.size() >= 2, Duration.ofSeconds(5))).hasSize(2);
    }

    @Test
    void failRateFailsEveryOrderWhenOne() throws Exception {
        start(0);
        sandbox.config().setFailRate(1.0);
        assertThat(client.createOrder("R-1", "TSEL10", "081234567890", null).data().get("status").textValue()).isEqualTo("failed");
        sandbox.config().setFailRate(0.0);
        assertThat(client.createOrder("R-2", "TSEL10", "081234567890", null).data().get("status").textValue()).isEqualTo("success");
    }

    @Test
    void webhookIsRetriedWithTheSameEventIdUntilA2xx() throws Exception {
        start(2);
        client.createOrder("W-1", "GP50K", "buyer@example.com", null);
        List<WebhookReceiver.Delivery> got = receiver.await(d -> d.size() >= 3, Duration.ofSeconds(8));
        assertThat(got).hasSize(3);
        assertThat(got).extracting(WebhookReceiver.Delivery::eventId).containsOnly(got.get(0).eventId());
        assertThat(got).extracting(WebhookReceiver.Delivery::text).containsOnly(got.get(0).text());
        // back-off 1 s then 2 s
        assertThat(Duration.between(got.get(0).at(), got.get(1).at())).isGreaterThanOrEqualTo(Duration.ofMillis(900));
        assertThat(Duration.between(got.get(1).at(), got.get(2).at())).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
        Thread.sleep(300);
        assertThat(receiver.deliveries()).as("no more after the 2xx").hasSize(3);
    }

    @Test
    void duplicatesAreInjected() throws Exception {
        start(0);
        sandbox.config().setWebhookDuplicateRate(1.0);
        client.createOrder("DUP-1", "TSEL10", "081234567890", null);
        List<WebhookReceiver.Delivery> got = receiver.await(d -> d.size() >= 2, Duration.ofSeconds(5));
        assertThat(got).hasSize(2);
        assertThat(got.get(1).eventId()).isEqualTo(got.get(0).eventId());
        assertThat(got.get(1).text()).isEqualTo(got.get(0).text());
    }

    @Test
    void lateWebhooksAreHeldBack() throws Exception {
        start(0);
        sandbox.config().setWebhookLateRate(1.0).setWebhookLateDelay(Duration.ofMillis(800));
        Instant created = Instant.now();
        client.createOrder("LATE-1", "TSEL10", "081234567890", null);
        List<WebhookReceiver.Delivery> got = receiver.await(d -> !d.isEmpty(), Duration.ofSeconds(5));
        assertThat(got).hasSize(1);
        assertThat(Duration.between(created, got.get(0).at())).isGreaterThanOrEqualTo(Duration.ofMillis(750));
    }
}
