package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;

/**
 * track-webhook.yaml: the receiver answers 200 whatever arrives; only a webhook signed with the
 * api secret settles an order. The track route is not started and the sandbox settles nothing
 * within the test, so whatever changes the journal here is the webhook.
 */
class TrackWebhookRouteTest extends RouteTestSupport {

    private int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "track-webhook");
    }

    @Override
    SandboxConfig sandboxConfig() {
        return SandboxConfig.defaults().setSettleDelay(DurationRange.of(Duration.ofMinutes(10), Duration.ofMinutes(10)));
    }

    @Override
    void environment(Map<String, String> env) {
        try {
            port = freePort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        env.put("TOPUP_WEBHOOK_PORT", Integer.toString(port));
        env.put("TOPUP_WEBHOOK_PATH", "/hooks/topup");
    }

    @Test
    void only_a_signed_webhook_settles_an_order_and_every_webhook_gets_200() throws Exception {
        drop("hook.csv", "ref_id,product_sku,customer_no,customer_no_zone\nWH-0001,GI60,812345678,asia\n");
        RowRecord pending = Poll.until("WH-0001 is pending", WAIT, () -> rows("hook.csv"),
                r -> r.size() == 1 && r.get(0).state() == RowState.PENDING).get(0);
        String body = """
                {"event":"order.status","ref_id":"WH-0001","product_sku":"GI60","customer_no":"812345678",\
                "status":"success","serial_number":"SN-FROM-WEBHOOK","price":%d,"message":"Transaction success"}\
                """.formatted(pending.price());

        // forged: same body, signed with another secret
        Instant beforeForged = Instant.now();
        HttpResponse<String> forged = post(body, hmac("not-the-secret", body));
        assertThat(forged.statusCode()).isEqualTo(200);
        assertThat(forged.body()).isEqualTo("ok");
        RowRecord afterForged = row("hook.csv", "WH-0001");
        assertThat(afterForged.state()).isEqualTo(RowState.PENDING);
        assertThat(afterForged.serialNumber()).isNull();
        assertThat(afterForged.price()).isEqualTo(pending.price());
        assertThat(afterForged.message()).isEqualTo(pending.message());
        // taken as a hint: the provider is to be asked now (it was due in 5 s)
        assertThat(afterForged.nextCheckAt()).isBefore(pending.nextCheckAt()).isBeforeOrEqualTo(Instant.now());
        assertThat(afterForged.nextCheckAt()).isAfterOrEqualTo(beforeForged.minusSeconds(1));

        // unsigned, and garbage
        assertThat(post(body, null).statusCode()).isEqualTo(200);
        HttpResponse<String> garbage = post("\u0000{not json", "deadbeef");
        assertThat(garbage.statusCode()).isEqualTo(200);
        assertThat(garbage.body()).isEqualTo("ignored");
        assertThat(row("hook.csv", "WH-0001").state()).isEqualTo(RowState.PENDING);

        // signed with the api secret: settles the order (the sandbox still holds it pending)
        HttpResponse<String> signed = post(body, hmac(settings.apiSecret(), body));
        assertThat(signed.statusCode()).isEqualTo(200);
        RowRecord settled = row("hook.csv", "WH-0001");
        assertThat(settled.state()).isEqualTo(RowState.SUCCESS);
        assertThat(settled.serialNumber()).isEqualTo("SN-FROM-WEBHOOK");
        assertThat(sandbox.ledger().get(0).status()).isEqualTo("pending");
    }

    private HttpResponse<String> post(String body, String signature) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hooks/topup"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (signature != null) {
            request.header("X-Topup-Signature", signature);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String hmac(String secret, String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
    }
}
