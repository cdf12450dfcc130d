package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Digiflazz's webhooks as https://developer.digiflazz.com/api/buyer/webhook describes them, received by a small
 * HTTP endpoint and checked with the test's own HMAC-SHA1.
 */
class SandboxDigiflazzWebhookTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final String SECRET = "df-webhook-secret-Q2";

    private WebhookReceiver receiver;
    private SandboxProvider sandbox;
    private DigiflazzTestClient client;

    @BeforeEach
    void start() throws IOException {
        receiver = new WebhookReceiver(0);
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(5L).setDialect(SandboxDialect.DIGIFLAZZ)
                .setWebhookUrl(receiver.url()).setWebhookSecret(SECRET)
                .setSettleDelay(DurationRange.parse("200ms-300ms")), 0);
        client = new DigiflazzTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
        receiver.close();
    }

    private static JsonNode json(WebhookReceiver.Delivery d) {
        try {
            return SandboxTestClient.MAPPER.readTree(d.body());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertSignedAndHeadered(WebhookReceiver.Delivery d, String event) {
        assertThat(d.header("X-Hub-Signature")).isEqualTo(DigiflazzTestClient.hubSignature(SECRET, d.body()));
        assertThat(d.header("X-Digiflazz-Event")).isEqualTo(event);
        assertThat(d.header("X-Digiflazz-Delivery")).isNotBlank();
        assertThat(d.header("User-Agent")).startsWith("DigiFlazz-Hookshot/");
        assertThat(d.contentType()).startsWith("application/json");
    }

    @Test
    void aPendingTopupSendsCreateThenUpdateSignedWithTheSecret() {
        client.topup("WH-1", "XL10", "081712345678");
        List<WebhookReceiver.Delivery> got = receiver.await(l -> l.size() >= 2, WAIT);
        assertThat(got).hasSize(2);
        WebhookReceiver.Delivery create = got.get(0);
        WebhookReceiver.Delivery update = got.get(1);
        assertSignedAndHeadered(create, "create");
        assertSignedAndHeadered(update, "update");
        JsonNode created = json(create).get("data");
        assertThat(created.get("ref_id").textValue()).isEqualTo("WH-1");
        assertThat(created.get("status").textValue()).isEqualTo("Pending");
        assertThat(created.get("rc").textValue()).isEqualTo("03");
        assertThat(created.get("trx_id").textValue()).hasSize(24);
        JsonNode updated = json(update).get("data");
        assertThat(updated.get("status").textValue()).isEqualTo("Sukses");
        assertThat(updated.get("rc").textValue()).isEqualTo("00");
        assertThat(updated.get("sn").textValue()).isNotEmpty();
        assertThat(updated.get("trx_id").textValue()).isEqualTo(created.get("trx_id").textValue());
        assertThat(updated.get("buyer_sku_code").textValue()).isEqualTo("XL10");
        assertThat(updated.get("customer_no").textValue()).isEqualTo("081712345678");
        assertThat(updated.get("price").isIntegralNumber()).isTrue();
        assertThat(updated.get("buyer_last_saldo").isNumber()).isTrue();
    }

    @Test
    void anInstantTopupSendsOneCreateWithItsFinalStatus() {
        client.topup("WH-2", "FF100", "123456789");
        List<WebhookReceiver.Delivery> got = receiver.await(l -> !l.isEmpty(), WAIT);
        assertSignedAndHeadered(got.get(0), "create");
        assertThat(json(got.get(0)).get("data").get("status").textValue()).isEqualTo("Sukses");
        // a status check by the same ref_id sends nothing more
        client.topup("WH-2", "FF100", "123456789");
        sleep(300);
        assertThat(receiver.deliveries()).hasSize(1);
    }

    @Test
    void aTamperedBodyDoesNotVerify() {
        client.topup("WH-3", "FF100", "123456789");
        WebhookReceiver.Delivery d = receiver.await(l -> !l.isEmpty(), WAIT).get(0);
        byte[] tampered = d.text().replace("WH-3", "WH-4").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(d.header("X-Hub-Signature")).isNotEqualTo(DigiflazzTestClient.hubSignature(SECRET, tampered));
        assertThat(d.header("X-Hub-Signature")).isNotEqualTo(DigiflazzTestClient.hubSignature("other", d.body()));
    }

    @Test
    void aRefusedDeliveryIsRetriedWithTheSameBodyAndDeliveryId() throws IOException {
        sandbox.close();
        receiver.close();
        receiver = new WebhookReceiver(1);
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(5L).setDialect(SandboxDialect.DIGIFLAZZ)
                .setWebhookUrl(receiver.url()).setWebhookSecret(SECRET)
                .setWebhookRetrySchedule(List.of(Duration.ofMillis(100))), 0);
        client = new DigiflazzTestClient(sandbox.baseUrl());
        client.topup("WH-5", "FF100", "123456789");
        List<WebhookReceiver.Delivery> got = receiver.await(l -> l.size() >= 2, WAIT);
        assertThat(got.get(0).answered()).isEqualTo(500);
        assertThat(got.get(1).answered()).isEqualTo(200);
        assertThat(got.get(1).body()).isEqualTo(got.get(0).body());
        assertThat(got.get(1).header("X-Digiflazz-Delivery")).isEqualTo(got.get(0).header("X-Digiflazz-Delivery"));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
