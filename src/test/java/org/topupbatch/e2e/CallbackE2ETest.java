package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.testing.CallbackReceiver;
import org.topupbatch.testing.CallbackReceiver.Received;
import org.topupbatch.testing.Poll;

/**
 * Signed callbacks from the outbox on the built jar (docs/callbacks.md, CONTRACT section 13), on H2
 * and PostgreSQL, to a receiver on 127.0.0.1 that checks each request's signature the way an ERP
 * would: a batch posted through the HTTP door with {@code callback_url} gets its
 * {@code batch_reported} callback after two tries answered 500, every try with the same event id; a
 * SIGKILL while the callback waits loses nothing, and after the restart it arrives once and is
 * never sent again; a host not allowed is refused 400 at the door; an allowed name that resolves to
 * 127.0.0.1, which is not itself allowed, is refused at delivery and given up with one line.
 */
class CallbackE2ETest {

    static final String TOKEN = "erp-door-token-cb41";
    static final String SECRET = "cb-secret-never-shown-9d2";
    static final String CSV = "ref_id,product_sku,customer_no\nCB-1,FF100,31234567\nCB-2,FF100,31234568\n";

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(SandboxConfig::defaults)
            .env("TOPUP_MODE", "watch").env("TOPUP_WEBHOOK_PORT", "0").env("TOPUP_INTAKE_TOKEN", TOKEN)
            .env("TOPUP_CALLBACK_SECRET", SECRET).env("TOPUP_NOTIFY_RETRY_DELAY", "500");
    final JarRun run = product.run();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** The ERP's receiver (the campaigns use it too): checks each signature, answers 200 unless told otherwise. */
    CallbackReceiver receiver;
    List<Received> received;

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = CallbackReceiver.start("/erp-cb", SECRET);
        received = receiver.received();
    }

    @AfterEach
    void stopReceiver() throws Exception {
        run.kill();
        receiver.close();
    }

    String callbackUrl(String host) {
        return receiver.url(host);
    }

    HttpResponse<String> post(String name, String callbackUrl) throws Exception {
        String query = "name=" + name + (callbackUrl == null ? "" : "&callback_url=" + URLEncoder.encode(callbackUrl, StandardCharsets.UTF_8));
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT")
                        + "/batches?" + query)).header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.ofString(CSV)).build(), HttpResponse.BodyHandlers.ofString());
    }

    void start() throws Exception {
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Ready:");
    }

    long delivered() {
        return receiver.delivered();
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void a_signed_callback_is_tried_again_with_the_same_event_id_and_a_host_not_allowed_is_refused(JournalDatabase db)
            throws Exception {
        product.journalOn(db);
        run.env.put("TOPUP_CALLBACK_ALLOWED_HOSTS", "127.0.0.1");
        receiver.answer(n -> n <= 2 ? 500 : 200);
        start();

        HttpResponse<String> refused = post("evil.csv", "http://erp.example.net/cb");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("callback_url host erp.example.net is not in topup.callback.allowed-hosts");
        assertThat(run.inbox.toFile().list()).as("nothing taken from a refused request").isEmpty();

        HttpResponse<String> taken = post("erp-cb.csv", callbackUrl("127.0.0.1"));
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(202);
        long batch = new ObjectMapper().readTree(taken.body()).get("batch").asLong();

        Poll.until("the callback delivered", Duration.ofSeconds(90), () -> delivered() == 1 ? received : null,
                r -> r != null, run::output);
        assertThat(received).hasSize(3).allSatisfy(r -> assertThat(r.verified()).as("signature of " + r).isTrue());
        assertThat(received).extracting(Received::answered).containsExactly(500, 500, 200);
        assertThat(received.subList(0, 3)).extracting(Received::eventId).as("one event id on every try").containsOnly(received.get(0).eventId());
        JsonNode body = new ObjectMapper().readTree(received.get(2).body());
        assertThat(body.get("event").asText()).isEqualTo("batch_reported");
        assertThat(body.get("event_id").asText()).isEqualTo(received.get(0).eventId()).startsWith("evt_");
        assertThat(body.get("batch").asLong()).isEqualTo(batch);
        assertThat(body.get("file").asText()).isEqualTo("erp-cb.csv");
        assertThat(body.get("summary").get("rows").asLong()).isEqualTo(2);
        assertThat(body.get("summary").get("success").asLong() + body.get("summary").get("failed").asLong()).isEqualTo(2);
        assertThat(body.get("report_url").asText()).isEqualTo("/batches/" + batch + "/report");
        // the first and the third try within two minutes (CONTRACT)
        assertThat(Duration.between(received.get(0).at(), received.get(2).at())).isLessThan(Duration.ofMinutes(2));

        Path summary = Files.list(run.reports).filter(p -> p.getFileName().toString().endsWith(".summary.json")).findFirst()
                .orElseThrow();
        Duration delay = Duration.between(Files.getLastModifiedTime(summary).toInstant(), received.get(0).at());
        System.out.println("CallbackE2ETest " + db + ": report to first callback try " + delay.toMillis() + " ms");
        assertThat(delay).isLessThan(Duration.ofSeconds(10));

        // a multipart upload names its callback in a form field
        HttpResponse<String> form = postForm("erp-form.csv", callbackUrl("127.0.0.1"));
        assertThat(form.statusCode()).as(form.body()).isEqualTo(202);
        Poll.until("the form's callback", Duration.ofSeconds(90), () -> delivered() == 2 ? received : null,
                r -> r != null, run::output);
        assertThat(new ObjectMapper().readTree(received.get(received.size() - 1).body()).get("file").asText())
                .isEqualTo("erp-form.csv");
        assertThat(run.output()).doesNotContain(SECRET).doesNotContainPattern("\\n\\s+at [a-z]+\\.");
    }

    HttpResponse<String> postForm(String name, String callbackUrl) throws Exception {
        String boundary = "----cb" + System.nanoTime();
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"callback_url\"\r\n\r\n" + callbackUrl
                + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + name
                + "\"\r\nContent-Type: text/csv\r\n\r\n" + CSV.replace("CB-", "CF-") + "\r\n--" + boundary + "--\r\n";
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + run.env.get("TOPUP_MANAGEMENT_PORT")
                        + "/batches")).header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary).timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void a_kill_while_the_callback_waits_loses_nothing_and_it_arrives_once(JournalDatabase db) throws Exception {
        product.journalOn(db);
        run.env.put("TOPUP_CALLBACK_ALLOWED_HOSTS", "127.0.0.1");
        receiver.answer(n -> 503); // the ERP is down
        start();
        assertThat(post("erp-kill.csv", callbackUrl("127.0.0.1")).statusCode()).isEqualTo(202);
        Poll.until("a first try of the callback", Duration.ofSeconds(90), () -> received.isEmpty() ? null : received,
                r -> r != null, run::output);
        run.kill(); // SIGKILL: the report is written, the callback not delivered
        String eventId = received.get(0).eventId();
        int before = received.size();

        receiver.answer(n -> 200); // the ERP is back
        start();
        Poll.until("the callback after the restart", Duration.ofSeconds(90), () -> delivered() == 1 ? received : null,
                r -> r != null, run::output);
        assertThat(received.subList(before, received.size())).extracting(Received::eventId).containsOnly(eventId);
        assertThat(received).allSatisfy(r -> assertThat(r.verified()).isTrue());

        // once recorded as delivered (the line comes after the record), never again: not by this run,
        // not after another restart (a kill between the receiver's 200 and the record would send it once
        // more, with the same event id: at least once, deduplicated by the receiver)
        Poll.until("the delivery recorded", Duration.ofSeconds(30), run::output,
                o -> o.contains(eventId + " delivered to " + callbackUrl("127.0.0.1") + " on try"), run::output);
        run.kill();
        start();
        Thread.sleep(5_000); // a claimable message would go within a second of the start
        long distinct = received.stream().filter(r -> r.answered() == 200).map(Received::eventId).distinct().count();
        System.out.println("CallbackE2ETest kill " + db + ": " + received.size() + " requests, " + delivered()
                + " answered 200, " + distinct + " distinct event ids delivered");
        assertThat(delivered()).as("delivered once").isEqualTo(1);
        assertThat(distinct).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void an_allowed_name_that_leads_to_a_loopback_address_not_allowed_is_refused_at_delivery(JournalDatabase db)
            throws Exception {
        product.journalOn(db);
        run.env.put("TOPUP_CALLBACK_ALLOWED_HOSTS", "localhost"); // the name, not 127.0.0.1
        start();
        HttpResponse<String> taken = post("erp-ssrf.csv", callbackUrl("localhost"));
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(202);

        String line = Poll.until("the refusal", Duration.ofSeconds(90), run::output,
                o -> o.contains("refused; given up"), run::output);
        assertThat(line).contains("Callback batch_reported evt_").contains(" to " + callbackUrl("localhost")
                + " refused; given up: callback host localhost resolves to the internal address 127.0.0.1, which is not"
                + " itself in topup.callback.allowed-hosts").doesNotContainPattern("\\n\\s+at [a-z]+\\.");
        assertThat(received).as("nothing reached the internal address").isEmpty();

        assertThat(product.command("status")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("Given up: batch_reported evt_").contains("'resend-notices evt_");
        // the dashboard's view lists it too
        HttpResponse<String> view = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + run.env.get("TOPUP_MANAGEMENT_PORT") + "/dashboard.json")).header("Authorization", "Bearer " + TOKEN)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(new ObjectMapper().readTree(view.body()).get("outbox").get(0).asText()).startsWith("Given up: batch_reported evt_");

        // sent again: refused again, with the same event id (the host still leads to 127.0.0.1)
        String eventId = line.substring(line.indexOf("Callback batch_reported ") + 24).split(" ")[0];
        assertThat(product.command("resend-notices", eventId)).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("1 message waits to be sent again (event id " + eventId + ")");
        Poll.until("the second refusal", Duration.ofSeconds(60), run::output,
                o -> o.split("refused; given up", -1).length == 3, run::output);
        assertThat(product.command("resend-notices", "evt_unknown")).isEqualTo(1);
        assertThat(product.commandOutput()).contains("no given-up message has event id evt_unknown");
    }
}
