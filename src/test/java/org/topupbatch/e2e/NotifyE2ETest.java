package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.FreePorts;

/**
 * Notifications from the built jar to real servers the test starts on 127.0.0.1: GreenMail for
 * SMTP (with a login), an HTTP receiver for JSON, and a stand-in of Telegram's Bot API that
 * camel-telegram is pointed at ({@code baseUri}). A batch reported and a balance below
 * {@code topup.notify.low-balance} reach all three; a fourth endpoint that refuses connections is
 * given up after its retries with one log line, and the run ends as usual. Neither the SMTP
 * password, the bot token nor the API secret appears in any message or log line.
 */
class NotifyE2ETest {

    static final String SMTP_PASSWORD = "smtp-Pw-never-shown";
    static final String BOT_TOKEN = "123456:bot-token-never-shown";

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(SandboxConfig::defaults)
            .env("TOPUP_MODE", "once").env("TOPUP_WEBHOOK_PORT", "0");
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    GreenMail mail;
    HttpServer receiver;
    HttpServer telegram;
    final List<String> posted = new CopyOnWriteArrayList<>();
    final List<String> telegramCalls = new CopyOnWriteArrayList<>();
    final List<String> postedHeaders = new CopyOnWriteArrayList<>();
    final JarRun run = product.run();

    @BeforeEach
    void start() throws IOException {
        mail = new GreenMail(new ServerSetup(FreePorts.pick(), "127.0.0.1", "smtp"));
        mail.start();
        mail.setUser("ops@example.com", "ops", SMTP_PASSWORD);
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", FreePorts.pick()), 0);
        receiver.createContext("/topup-events", exchange -> {
            posted.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            postedHeaders.add(exchange.getRequestHeaders().toString());
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        // Telegram's Bot API as far as sendMessage goes: POST /bot<token>/sendMessage, {"ok":true,"result":{message}}
        telegram = HttpServer.create(new InetSocketAddress("127.0.0.1", FreePorts.pick()), 0);
        telegram.createContext("/", exchange -> {
            telegramCalls.add(exchange.getRequestURI().getPath() + " " + new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8));
            byte[] answer = ("{\"ok\":true,\"result\":{\"message_id\":" + telegramCalls.size()
                    + ",\"date\":1764000000,\"chat\":{\"id\":4242,\"type\":\"private\"},\"text\":\"ok\"}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        telegram.start();
    }

    @AfterEach
    void stop() throws Exception {
        run.kill(); // before the receivers stop: nothing it sends meanwhile is lost to a closed port
        telegram.stop(0);
        receiver.stop(0);
        mail.stop();
    }

    @Test
    void a_reported_batch_and_a_low_balance_reach_mail_http_and_telegram_and_a_dead_endpoint_is_given_up() throws Exception {
        int dead = FreePorts.pick(); // nothing listens there
        run.env.put("TOPUP_NOTIFY_URIS", String.join(",",
                "smtp://127.0.0.1:" + mail.getSmtp().getPort() + "?username=ops&password=" + SMTP_PASSWORD
                        + "&from=topup@example.com&to=ops@example.com,finance@example.com",
                "http://127.0.0.1:" + receiver.getAddress().getPort() + "/topup-events",
                "telegram:bots?authorizationToken=" + BOT_TOKEN + "&chatId=4242&baseUri=http://127.0.0.1:"
                        + telegram.getAddress().getPort(),
                "http://127.0.0.1:" + dead + "/dead"));
        run.env.put("TOPUP_NOTIFY_LOW_BALANCE", "20.000.000"); // the sandbox's 10,000,000 is below it
        run.env.put("TOPUP_NOTIFY_RETRY_DELAY", "100");
        // the dead endpoint's message is given up within the run (by default it is tried for two days)
        run.env.put("TOPUP_NOTIFY_GIVE_UP_AFTER", "3s");
        run.drop("evening.csv", "ref_id,product_sku,customer_no\nNT-1,FF100,31234567\nNT-2,FF100,31234568\n"
                + "NT-3,FF100,31230000\n");

        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();

        // e-mail, through a real SMTP server with a login: one message per notice, to both addresses
        assertThat(mail.waitForIncomingEmail(10_000, 4)).as("two notices to two addresses").isTrue();
        MimeMessage[] messages = mail.getReceivedMessages();
        List<String> subjects = java.util.Arrays.stream(messages).map(m -> {
            try {
                return m.getSubject();
            } catch (jakarta.mail.MessagingException e) {
                throw new IllegalStateException(e);
            }
        }).distinct().toList();
        assertThat(subjects).containsExactlyInAnyOrder("topup-batch: evening.csv reported: 2 success, 1 failed, 0 rejected",
                "topup-batch: balance Rp " + rupiahAfter() + " is below Rp 20.000.000");
        String body = com.icegreen.greenmail.util.GreenMailUtil.getBody(java.util.Arrays.stream(messages)
                .filter(m -> subjectOf(m).contains("reported")).findFirst().orElseThrow());
        assertThat(body).contains("Batch evening.csv: 3 rows, 2 success, 1 failed, 0 pending, 0 rejected.")
                .contains("Charged Rp 26.600");
        for (MimeMessage m : messages) {
            java.util.Enumeration<jakarta.mail.Header> headers = m.getAllHeaders();
            while (headers.hasMoreElements()) {
                jakarta.mail.Header h = headers.nextElement();
                assertThat(h.getName() + ": " + h.getValue()).as("a mail header").doesNotContain(SMTP_PASSWORD)
                        .doesNotContain("TopupNotify");
            }
        }

        // JSON to the HTTP endpoint
        assertThat(posted).hasSize(2);
        JsonNode reported = posted.stream().map(NotifyE2ETest::json).filter(n -> n.get("event").asText().equals("batch_reported"))
                .findFirst().orElseThrow();
        assertThat(reported.get("batch").asText()).isEqualTo("evening.csv");
        assertThat(reported.get("success").asLong()).isEqualTo(2);
        assertThat(reported.get("charged").asLong()).isEqualTo(26_600);
        assertThat(posted.stream().map(NotifyE2ETest::json).map(n -> n.get("event").asText())).contains("balance_low");
        assertThat(String.join("\n", postedHeaders)).as("the HTTP request's headers").doesNotContain("TopupNotify")
                .doesNotContain(SMTP_PASSWORD);

        // Telegram, through camel-telegram against the stand-in
        assertThat(telegramCalls).hasSize(2).allSatisfy(call -> assertThat(call)
                .startsWith("/bot" + BOT_TOKEN + "/sendMessage").contains("4242"));
        assertThat(telegramCalls).anySatisfy(call -> assertThat(call).contains("evening.csv reported"));

        // the dead endpoint: given up, one line each, and nothing secret anywhere
        assertThat(run.output()).contains("Notification batch_reported could not be delivered to http://127.0.0.1:" + dead
                + "/dead after retrying; given up").doesNotContain(SMTP_PASSWORD).doesNotContain("bot-token-never-shown")
                .doesNotContain(sandbox.config().apiSecret()).doesNotContainPattern("\\n\\s+at [a-z]+\\.");
        assertThat(String.join("\n", posted) + String.join("\n", telegramCalls).replace("/bot" + BOT_TOKEN, "") + body)
                .doesNotContain(SMTP_PASSWORD).doesNotContain(sandbox.config().apiSecret());
    }

    @Test
    void an_inbox_folder_that_goes_away_is_told_once() throws Exception {
        run.env.put("TOPUP_MODE", "watch");
        run.env.put("TOPUP_NOTIFY_URIS", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/topup-events");
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Ready:");
        java.nio.file.Files.delete(run.inbox);
        org.topupbatch.testing.Poll.until("the inbox_unreadable notice", Duration.ofSeconds(20), () -> !posted.isEmpty());
        JsonNode notice = json(posted.get(0));
        assertThat(notice.get("event").asText()).isEqualTo("inbox_unreadable");
        assertThat(notice.get("reason").asText()).isEqualTo("it does not exist");
        Thread.sleep(6_000);
        assertThat(posted).as("told once, not at every look").hasSize(1);
        assertThat(run.output()).contains("takes no file: it does not exist");
    }

    private String rupiahAfter() {
        return org.topupbatch.text.Rupiah.format(sandbox.balance()).substring(3);
    }

    private static String subjectOf(MimeMessage m) {
        try {
            return m.getSubject();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(String body) {
        try {
            return new ObjectMapper().readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException(body, e);
        }
    }
}
