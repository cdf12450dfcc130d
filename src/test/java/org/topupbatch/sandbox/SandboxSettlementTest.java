package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.topupbatch.testing.Poll;

/** Async settlement, failures with refunds, and webhooks as docs/sandbox.md describes them. */
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

    /** The documented signature, computed here with the JDK's own MD5. */
    private static String md5(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
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
        assertThat(delivery.contentType()).startsWith("application/json");
        JsonNode root = SandboxTestClient.MAPPER.readTree(delivery.body());
        assertThat(root.fieldNames()).toIterable().containsExactly("event", "data", "signature");
        assertThat(root.get("event").textValue()).isEqualTo("order.updated");
        // md5(webhook_secret + ref_id + status), the sandbox's demo webhook secret, lower-case hex
        assertThat(root.get("signature").textValue()).isEqualTo(md5("whsec-demo-4Tq8Lm" + "S-1" + "success"))
                .isEqualTo(md5(SandboxConfig.DEMO_WEBHOOK_SECRET + "S-1success"));
        JsonNode event = root.get("data");
        assertThat(event.fieldNames()).toIterable().containsExactly("ref_id", "product_sku", "customer_no", "status",
                "serial_number", "price", "message", "timestamp");
        assertThat(event.get("ref_id").textValue()).isEqualTo("S-1");
        assertThat(event.get("product_sku").textValue()).isEqualTo("GI60");
        assertThat(event.get("customer_no").textValue()).isEqualTo("812345678");
        assertThat(event.get("status").textValue()).isEqualTo("success");
        assertThat(event.get("serial_number").isTextual()).isTrue();
        assertThat(event.get("price").isIntegralNumber()).isTrue();
        assertThat(event.get("price").longValue()).isEqualTo(price);
        assertThat(event.get("message").isTextual()).isTrue();
        assertThat(Instant.parse(event.get("timestamp").textValue())).as("the settlement's instant")
                .isAfterOrEqualTo(sandbox.ledger().get(0).createdAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS))
                .isBeforeOrEqualTo(Instant.now());

        JsonNode polled = client.checkOrder("S-1").data();
        assertThat(polled.get("status").textValue()).isEqualTo("success");
        assertThat(polled.get("serial_number").textValue()).isEqualTo(event.get("serial_number").textValue());
        assertThat(polled.get("balance_after").longValue()).as("as at creation").isEqualTo(before - price);
        LedgerEntry entry = sandbox.ledger().get(0);
        assertThat(entry.status()).isEqualTo("success");
        assertThat(entry.settledAt()).isAfterOrEqualTo(entry.createdAt());
        assertThat(entry.refunded()).isFalse();
        assertThat(sandbox.balance()).isEqualTo(before - price);
    }

    @Test
    void asyncOrderEndingFailedIsRefunded() throws Exception {
        start(0);
        long before = sandbox.balance();
        JsonNode order = client.createOrder("F-1", "XL10", "081700000000", null).data();
        assertThat(order.get("status").textValue()).isEqualTo("pending");
        // deducted at creation: read from the answer, as the order may already have settled (and been refunded)
        assertThat(order.get("balance_after").longValue()).isEqualTo(before - order.get("price").longValue());
        Poll.until("F-1 settles", Duration.ofSeconds(5), () -> sandbox.ledger().get(0).status(), "failed"::equals);
        LedgerEntry entry = sandbox.ledger().get(0);
        assertThat(entry.refunded()).isTrue();
        assertThat(entry.serialNumber()).isNull();
        assertThat(sandbox.balance()).isEqualTo(before);
        assertThat(client.balance().data().get("balance").longValue()).isEqualTo(before);
        JsonNode root = SandboxTestClient.MAPPER.readTree(
                receiver.await(d -> !d.isEmpty(), Duration.ofSeconds(5)).get(0).body());
        JsonNode event = root.get("data");
        assertThat(event.get("status").textValue()).isEqualTo("failed");
        assertThat(root.get("signature").textValue()).isEqualTo(md5(SandboxConfig.DEMO_WEBHOOK_SECRET + "F-1failed"));
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
    void webhookIsRetriedOnTheScheduleUntilA200() throws Exception {
        start(2);
        sandbox.config().set("webhook-retry-schedule", "300ms,600ms,900ms,1200ms");
        client.createOrder("W-1", "GP50K", "buyer@example.com", null);
        List<WebhookReceiver.Delivery> got = receiver.await(d -> d.size() >= 3, Duration.ofSeconds(8));
        assertThat(got).hasSize(3);
        assertThat(got).extracting(WebhookReceiver.Delivery::text).containsOnly(got.get(0).text());
        // the schedule's first waits: 300 ms, then 600 ms
        assertThat(Duration.between(got.get(0).at(), got.get(1).at())).isGreaterThanOrEqualTo(Duration.ofMillis(280));
        assertThat(Duration.between(got.get(1).at(), got.get(2).at())).isGreaterThanOrEqualTo(Duration.ofMillis(580));
        assertThat(got).extracting(WebhookReceiver.Delivery::answered).as("the receiver's answers").containsExactly(500, 500, 200);
        LedgerEntry order = sandbox.ledger().get(0);
        assertThat(order.status()).isEqualTo("success");
        assertThat(order.settledAt()).isNotNull();

        // No more after the 200. The sender's retries run on its own real-time scheduler (no clock a test
        // can move), so instead of sleeping the test waits for an event that comes later than a fourth
        // attempt would have (900 ms after the third): another order's webhook, held back 1200 ms.
        sandbox.config().setWebhookLateRate(1.0).setWebhookLateDelay(Duration.ofMillis(1200));
        client.createOrder("W-1-LATER", "TSEL10", "081234567890", null);
        List<WebhookReceiver.Delivery> later = Poll.until("the held-back webhook of W-1-LATER", Duration.ofSeconds(8),
                receiver::deliveries, d -> d.stream().anyMatch(x -> x.text().contains("\"W-1-LATER\"")));
        assertThat(later.get(later.size() - 1).at()).isAfterOrEqualTo(got.get(2).at().plusMillis(900));
        assertThat(later).filteredOn(d -> d.text().contains("\"W-1\"")).as("no more after the 200").hasSize(3);
    }

    @Test
    void webhookIsGivenUpAfterTheLastWaitOfTheSchedule() throws Exception {
        start(100);
        sandbox.config().set("webhook-retry-schedule", "100ms,200ms,300ms,400ms");
        // the settlement of the delivery: the sender says it gives up, after the first delivery and 4 retries
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger sender = (Logger) LoggerFactory.getLogger(WebhookSender.class);
        sender.addAppender(log);
        try {
            client.createOrder("W-2", "GP50K", "buyer@example.com", null);
            List<WebhookReceiver.Delivery> got = receiver.await(d -> d.size() >= 5, Duration.ofSeconds(8));
            assertThat(got).as("the first delivery and 4 retries").hasSize(5);
            Poll.until("the sender gives W-2 up", Duration.ofSeconds(5), () -> log.list.stream().map(ILoggingEvent::getFormattedMessage).toList(),
                    lines -> lines.contains("webhook for W-2 given up after 5 attempts (last status 500)"));
            assertThat(receiver.deliveries()).as("given up").hasSize(5)
                    .extracting(WebhookReceiver.Delivery::answered).containsOnly(500);
        } finally {
            sender.detachAppender(log);
        }
    }

    @Test
    void duplicatesAreInjected() throws Exception {
        start(0);
        sandbox.config().setWebhookDuplicateRate(1.0);
        client.createOrder("DUP-1", "TSEL10", "081234567890", null);
        List<WebhookReceiver.Delivery> got = receiver.await(d -> d.size() >= 2, Duration.ofSeconds(5));
        assertThat(got).hasSize(2);
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
