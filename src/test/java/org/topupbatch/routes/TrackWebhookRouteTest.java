package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.Poll;

/**
 * track-webhook.yaml: the receiver answers 200 whatever arrives; only a webhook in the documented
 * format signed with the webhook secret (md5(webhook_secret + ref_id + status)) settles an order.
 * The track route is not started and the sandbox settles nothing within the test, so whatever
 * changes the journal here is the webhook.
 */
class TrackWebhookRouteTest extends RouteTestSupport {

    private static final String WEBHOOK_SECRET = "whsec-route-test";

    private int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "submit-order", "mark-sending", "track-webhook");
    }

    @Override
    SandboxConfig sandboxConfig() {
        return SandboxConfig.defaults().setSettleDelay(DurationRange.of(Duration.ofMinutes(10), Duration.ofMinutes(10)));
    }

    @Override
    void environment(Map<String, String> env) {
        port = FreePorts.pick();
        env.put("TOPUP_WEBHOOK_PORT", Integer.toString(port));
        env.put("TOPUP_WEBHOOK_PATH", "/hooks/topup");
        env.put("TOPUP_WEBHOOK_SECRET", WEBHOOK_SECRET);
    }

    @Test
    void only_a_signed_webhook_settles_an_order_and_every_webhook_gets_200() throws Exception {
        drop("hook.csv", "ref_id,product_sku,customer_no\nWH-0001,STEAM45K,buyer@example.com\n");
        // pending, and its first look-up planned: the answer's outcome and its schedule are two statements
        RowRecord pending = Poll.until("WH-0001 is pending with its first look-up planned", WAIT, () -> rows("hook.csv"),
                r -> r.size() == 1 && r.get(0).state() == RowState.PENDING && r.get(0).nextCheckAt() != null).get(0);
        long lookUps = lookUps();

        // forged: claims success, signed with another secret
        Instant beforeForged = Instant.now();
        HttpResponse<String> forged = post(webhook(pending, "success", sign("not-the-secret", "success")));
        assertThat(forged.statusCode()).isEqualTo(200);
        assertThat(forged.body()).isEqualTo("ok");
        RowRecord afterForged = row("hook.csv", "WH-0001");
        assertThat(afterForged.state()).isEqualTo(RowState.PENDING);
        assertThat(afterForged.serialNumber()).isNull();
        assertThat(afterForged.price()).isEqualTo(pending.price());
        assertThat(afterForged.message()).isEqualTo(pending.message());
        // taken as a hint: the provider is to be asked now
        assertThat(afterForged.nextCheckAt()).isBefore(pending.nextCheckAt()).isBeforeOrEqualTo(Instant.now());
        assertThat(afterForged.nextCheckAt()).isAfterOrEqualTo(beforeForged.minusSeconds(1));

        // signed for a status the signature does not cover, unsigned, the old flat shape, garbage, an array
        assertThat(post(webhook(pending, "success", sign(WEBHOOK_SECRET, "failed"))).statusCode()).isEqualTo(200);
        assertThat(post(webhook(pending, "success", null)).statusCode()).isEqualTo(200);
        assertThat(post("{\"event\":\"order.status\",\"ref_id\":\"WH-0001\",\"status\":\"success\",\"signature\":\""
                + sign(WEBHOOK_SECRET, "success") + "\"}").statusCode()).isEqualTo(200);
        HttpResponse<String> garbage = post("\u0000{not json");
        assertThat(garbage.statusCode()).isEqualTo(200);
        assertThat(garbage.body()).isEqualTo("ignored");
        assertThat(post("[1,2,3]").statusCode()).isEqualTo(200);
        // a form post (the HTTP server parses it into a map, not bytes) and a multipart one: still 200, nothing settled
        assertThat(post("event=order.updated&ref_id=WH-0001&status=success", "application/x-www-form-urlencoded").body())
                .isEqualTo("ignored");
        assertThat(post("--b\r\nContent-Disposition: form-data; name=\"status\"\r\n\r\nsuccess\r\n--b--\r\n",
                "multipart/form-data; boundary=b").statusCode()).isEqualTo(200);
        assertThat(post("{\"data\":" + "[".repeat(70_000)).statusCode()).isEqualTo(200);
        assertThat(row("hook.csv", "WH-0001").state()).isEqualTo(RowState.PENDING);

        // signed "processing": true, and not final
        assertThat(post(webhook(pending, "processing", sign(WEBHOOK_SECRET, "processing"))).statusCode()).isEqualTo(200);
        assertThat(row("hook.csv", "WH-0001").state()).isEqualTo(RowState.PENDING);

        // signed with the webhook secret: settles the order (the sandbox still holds it pending)
        HttpResponse<String> signed = post(webhook(pending, "success", sign(WEBHOOK_SECRET, "success")));
        assertThat(signed.statusCode()).isEqualTo(200);
        RowRecord settled = row("hook.csv", "WH-0001");
        assertThat(settled.state()).isEqualTo(RowState.SUCCESS);
        assertThat(settled.serialNumber()).isEqualTo("SN-FROM-WEBHOOK");
        assertThat(settled.price()).isEqualTo(pending.price());
        assertThat(sandbox.ledger().get(0).status()).isEqualTo("pending");
        assertThat(lookUps()).as("no provider look-up").isEqualTo(lookUps);
    }

    @Test
    void one_account_has_the_plain_address_only() throws Exception {
        // the accounts' route of track-webhook.yaml is made only when topup.providers names accounts
        assertThat(context.getRoute("track-webhook")).isNotNull();
        assertThat(context.getRoute("track-webhook-account")).as("no account route with one account").isNull();
        HttpRequest under = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hooks/topup/main"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}", StandardCharsets.UTF_8)).build();
        assertThat(http.send(under, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }

    private long lookUps() {
        var perOperation = sandbox.stats().requestsPerOperation();
        return perOperation.getOrDefault("check-order", 0L) + perOperation.getOrDefault("order-history", 0L);
    }

    private static String sign(String secret, String status) {
        return DigestUtils.md5Hex(secret + "WH-0001" + status);
    }

    private static String webhook(RowRecord row, String status, String signature) {
        return """
                {"event":"order.updated","data":{"ref_id":"WH-0001","product_sku":"STEAM45K",\
                "customer_no":"buyer@example.com","status":"%s","serial_number":"SN-FROM-WEBHOOK","price":%d,\
                "message":"Transaction success","timestamp":"2026-11-21T10:00:03Z"}%s}\
                """.formatted(status, row.price(), signature == null ? "" : ",\"signature\":\"" + signature + "\"");
    }

    private HttpResponse<String> post(String body) throws Exception {
        return post(body, "application/json");
    }

    private HttpResponse<String> post(String body, String contentType) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hooks/topup"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
