package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.SmsGateway;

/**
 * The voucher to the customer on the built jar (docs/customer-messages.md, CONTRACT section 13), on H2
 * and PostgreSQL, over the real protocols: a stand-in of WhatsApp's Cloud API on 127.0.0.1 that checks
 * the bearer token and the JSON Camel's WhatsApp component sends; GreenMail receiving the e-mail over
 * SMTP with a login; an SMS gateway stand-in that answers 500 to a first try (the retry carries the
 * same event id) and always 500 for another number (given up: {@code failed: HTTP 500}). A failed
 * order, a pending order and a row without notify_to get no message; the report's customer_notified
 * says {@code sent}, {@code failed: <reason>} or nothing. No token or password reaches the log.
 */
class CustomerMessagesE2ETest {

    static final String WA_TOKEN = "wa-token-never-shown-5e1";
    static final String SMTP_PASSWORD = "smtp-Pw-never-shown-77";
    static final String PHONE_ID = "106540352242922";

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults()
                    // the async XL product stays pending for the whole test
                    .setSettleDelay(DurationRange.of(Duration.ofHours(1), Duration.ofHours(1))))
            .env("TOPUP_MODE", "watch").env("TOPUP_WEBHOOK_PORT", "0").env("TOPUP_PENDING_TIMEOUT", "25s")
            .env("TOPUP_NOTIFY_RETRY_DELAY", "500").env("TOPUP_CUSTOMER_RESELLER_NAME", "Toko Budi");
    final JarRun run = product.run();
    final List<Map<String, String>> whatsapp = new CopyOnWriteArrayList<>();
    GreenMail mail;
    HttpServer cloudApi;
    SmsGateway gateway;

    @BeforeEach
    void startStandIns() throws IOException {
        mail = new GreenMail(new ServerSetup(FreePorts.pick(), "127.0.0.1", "smtp"));
        mail.start();
        mail.setUser("toko@example.com", "toko", SMTP_PASSWORD);
        // WhatsApp Cloud API as far as a text message goes: POST /<version>/<phone number id>/messages
        cloudApi = HttpServer.create(new InetSocketAddress("127.0.0.1", FreePorts.pick()), 0);
        cloudApi.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String auth = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
            whatsapp.add(Map.of("path", exchange.getRequestURI().getPath(), "auth", auth, "body", body));
            boolean ok = auth.equals("Bearer " + WA_TOKEN) && exchange.getRequestURI().getPath().endsWith("/" + PHONE_ID + "/messages");
            byte[] answer = (ok ? "{\"messaging_product\":\"whatsapp\",\"contacts\":[{\"input\":\"x\",\"wa_id\":\"x\"}],"
                    + "\"messages\":[{\"id\":\"wamid.HBgL" + whatsapp.size() + "\"}]}"
                    : "{\"error\":{\"message\":\"Invalid OAuth access token.\",\"type\":\"OAuthException\",\"code\":190}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(ok ? 200 : 401, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        cloudApi.start();
        // an SMS gateway: the first try for a number answers 500, a later one 200; one number always 500
        gateway = SmsGateway.start().answer(asked -> asked.to().equals("+6281399990000") || gateway.to(asked.to()).isEmpty() ? 500 : 200);
    }

    @AfterEach
    void stopStandIns() throws Exception {
        run.kill();
        gateway.close();
        cloudApi.stop(0);
        mail.stop();
    }

    Report reportWhenWritten(String name) {
        return Poll.until("the report of " + name, Duration.ofSeconds(120), () -> {
            if (!Files.exists(run.reports.resolve(name + ".summary.json"))) {
                return null;
            }
            return Report.read(run.reports, name, ',');
        }, r -> r != null, run::output);
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void whatsapp_and_email_get_the_voucher_once_and_only_for_a_success(JournalDatabase db) throws Exception {
        product.journalOn(db);
        run.env.put("TOPUP_CUSTOMER_WHATSAPP_URI", "whatsapp:" + PHONE_ID + "?authorizationToken=" + WA_TOKEN
                + "&baseUri=http://127.0.0.1:" + cloudApi.getAddress().getPort());
        run.env.put("TOPUP_CUSTOMER_EMAIL_URI", "smtp://127.0.0.1:" + mail.getSmtp().getPort()
                + "?username=toko&password=" + SMTP_PASSWORD + "&from=toko@example.com");
        run.start();
        run.drop("vouchers.csv", """
                ref_id,product_sku,customer_no,notify_to,note
                WA-1,FF100,31234567,+62 812-3456-7890,a
                EM-1,FF100,31234568,budi@example.com,b
                NO-1,FF100,31234569,,c
                FA-1,FF100,31230000,0812 9999 8888,d
                PE-1,XL10,081712345678,0813 7777 6666,e
                BAD-1,FF100,31234570,budi at example,f
                """);

        // the pending order keeps the report until the pending timeout: by then the messages are settled
        Report report = reportWhenWritten("vouchers");
        assertThat(report.header()).containsSubsequence("message", "customer_notified", "note");
        assertThat(report.byLine(2)).containsEntry("status", "success").containsEntry("customer_notified", "sent");
        assertThat(report.byLine(3)).containsEntry("status", "success").containsEntry("customer_notified", "sent");
        assertThat(report.byLine(4)).containsEntry("status", "success").containsEntry("customer_notified", "");
        assertThat(report.byLine(5)).containsEntry("status", "failed").containsEntry("customer_notified", "");
        assertThat(report.byLine(6)).containsEntry("status", "pending").containsEntry("customer_notified", "");
        assertThat(report.byLine(7)).containsEntry("status", "rejected").containsEntry("customer_notified", "")
                .containsEntry("message", "notify_to must be a mobile number (08…, 628… or +628…) or an e-mail address"
                        + " (found 'budi at example')");

        // WhatsApp: one request, with the token, the Cloud API's JSON for a text message
        assertThat(whatsapp).hasSize(1);
        assertThat(whatsapp.get(0).get("auth")).isEqualTo("Bearer " + WA_TOKEN);
        assertThat(whatsapp.get(0).get("path")).endsWith("/" + PHONE_ID + "/messages");
        JsonNode sent = new ObjectMapper().readTree(whatsapp.get(0).get("body"));
        assertThat(sent.path("messaging_product").asText()).isEqualTo("whatsapp");
        assertThat(sent.path("to").asText()).isEqualTo("6281234567890");
        assertThat(sent.path("type").asText()).isEqualTo("text");
        String serial = report.byLine(2).get("serial_number");
        assertThat(serial).isNotBlank();
        assertThat(sent.path("text").path("body").asText()).isEqualTo("Terima kasih, pembelian Free Fire 100 Diamonds Anda berhasil.\n"
                + "SN / kode voucher: " + serial + "\nNo. transaksi: WA-1\nSalam, Toko Budi");

        // e-mail: one message to the customer, subject and text from the default template
        assertThat(mail.waitForIncomingEmail(10_000, 1)).isTrue();
        MimeMessage[] received = mail.getReceivedMessages();
        assertThat(received).hasSize(1);
        assertThat(received[0].getAllRecipients()[0].toString()).isEqualTo("budi@example.com");
        assertThat(received[0].getSubject()).isEqualTo("Voucher Free Fire 100 Diamonds dari Toko Budi");
        assertThat(GreenMailUtil.getBody(received[0])).contains("SN / kode voucher: " + report.byLine(3).get("serial_number"))
                .contains("No. transaksi: EM-1");

        // never twice: a restart sends nothing again
        run.kill();
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Ready:");
        Thread.sleep(3_000); // a claimable message would go within a second of the start
        assertThat(whatsapp).hasSize(1);
        assertThat(mail.getReceivedMessages()).hasSize(1);
        assertThat(run.output()).doesNotContain(WA_TOKEN).doesNotContain(SMTP_PASSWORD)
                .doesNotContainPattern("\\n\\s+at [a-z]+\\.");
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void an_sms_gateway_down_at_the_first_try_gets_the_same_event_id_again_and_a_dead_one_shows_failed(JournalDatabase db)
            throws Exception {
        product.journalOn(db);
        run.env.put("TOPUP_CUSTOMER_PHONE_CHANNEL", "sms");
        run.env.put("TOPUP_CUSTOMER_SMS_URI", gateway.url());
        // given up within the report's 15 s wait for customer messages, yet late enough that a loaded machine's
        // slow first try (a cold HTTP endpoint) still leaves time for the retry: with 3 s one was never retried
        run.env.put("TOPUP_NOTIFY_GIVE_UP_AFTER", "8s");
        run.start();
        run.drop("sms.csv", """
                ref_id,product_sku,customer_no,notify_to
                SMS-1,FF100,31234567,081234567890
                SMS-2,FF100,31234568,6281399990000
                SMS-3,FF100,31234569,budi@example.com
                """);

        Report report = reportWhenWritten("sms");
        assertThat(report.byLine(2)).containsEntry("status", "success").containsEntry("customer_notified", "sent");
        assertThat(report.byLine(3)).containsEntry("status", "success").containsEntry("customer_notified", "failed: HTTP 500");
        // no e-mail channel is set: no message, an empty column (said once at the start)
        assertThat(report.byLine(4)).containsEntry("status", "success").containsEntry("customer_notified", "");
        assertThat(run.output()).contains("topup.customer.email-uri is not set: an e-mail notify_to gets no message");

        List<SmsGateway.Sms> first = gateway.to("+6281234567890");
        assertThat(first).hasSize(2);
        assertThat(first).extracting(SmsGateway.Sms::eventId).as("one event id on every try")
                .containsOnly(first.get(0).eventId());
        assertThat(first).extracting(SmsGateway.Sms::headerEventId).containsOnly(first.get(0).eventId());
        assertThat(first.get(1).text()).contains("SN / kode voucher: " + report.byLine(2).get("serial_number"))
                .contains("Salam, Toko Budi");
        assertThat(gateway.to("+6281399990000").size()).isGreaterThanOrEqualTo(2);
        assertThat(run.output()).contains("Customer message customer_voucher " + first.get(0).eventId()
                + " delivered to +6281234567890 on try 2");
    }
}
