package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.commons.codec.digest.HmacAlgorithms;
import org.apache.commons.codec.digest.HmacUtils;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * Webhooks with two accounts (docs/accounts-and-dialects.md#several-accounts), on the built jar: {@code main}, a sandbox of the
 * default dialect, posts its signed webhooks to {@code /webhook/main}; {@code dfz}, a sandbox speaking
 * Digiflazz, posts its X-Hub-Signature webhooks to {@code /webhook/dfz}; each account has its own webhook
 * secret. Steam codes settle after 12 s, long before a pending order's first look-up (75 s while its
 * webhooks settle), so a row settled by its own account's webhook says so in the log. Meanwhile the test
 * posts forged {@code failed} webhooks: signed with the other account's secret, naming the other account's
 * order with a valid signature, signed at the plain address; none may settle anything (every row ends
 * success, as both ledgers say). An unsigned webhook at an account's address is a hint: that account is
 * asked about the order at once.
 */
class AccountsWebhookE2ETest {

    static final String MAIN_SECRET = "whsec-main-8Rt2Wq";
    static final String DFZ_SECRET = "whsec-dfz-3Ka9Zm";

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    SandboxProvider main;
    SandboxProvider dfz;
    final JarRun run = product.run();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void each_accounts_signed_webhooks_settle_its_own_orders_only() throws Exception {
        int port = run.webhookPort();
        // long enough that every hint and forged post below lands while the orders are pending (a loaded machine
        // takes seconds over them), short of the first look-up (75 s): the signed webhooks still settle them
        DurationRange settle = DurationRange.of(Duration.ofSeconds(25), Duration.ofSeconds(25));
        DurationRange latency = DurationRange.of(Duration.ofMillis(10), Duration.ofMillis(40));
        // STEAM90K down at main: those rows go to dfz under their own ref_id
        main = product.startSandbox(SandboxConfig.defaults().setSeed(81L).setLatency(latency).setSettleDelay(settle)
                .setUnavailable(List.of("STEAM90K")).setWebhookSecret(MAIN_SECRET)
                .setWebhookUrl("http://127.0.0.1:" + port + "/webhook/main"));
        dfz = product.startSandbox(SandboxConfig.defaults().setSeed(82L).setDialect(SandboxDialect.DIGIFLAZZ)
                .setLatency(latency).setSettleDelay(settle).setWebhookSecret(DFZ_SECRET)
                .setWebhookUrl("http://127.0.0.1:" + port + "/webhook/dfz"));
        ProductFixture.twoAccounts(run.env, main, dfz);
        run.env.put("TOPUP_WEBHOOK_PORT", Integer.toString(port)); // the receiver on, this time
        run.env.put("TOPUP_PROVIDER_MAIN_WEBHOOK_SECRET", MAIN_SECRET);
        run.env.put("TOPUP_PROVIDER_DFZ_WEBHOOK_SECRET", DFZ_SECRET);
        run.env.put("TOPUP_MODE", "once");
        // AW-1, AW-2 at main and AW-3, AW-4 at dfz get only their account's own webhooks; AW-5 (main) and AW-6 (dfz)
        // forged ones too; AW-7 (main) and AW-8 (dfz) an unsigned one each
        run.drop("hooks.csv", "ref_id,product_sku,customer_no\n"
                + "AW-1,STEAM45K,a1@example.com\nAW-2,STEAM45K,a2@example.com\n"
                + "AW-3,STEAM90K,a3@example.com\nAW-4,STEAM90K,a4@example.com\n"
                + "AW-5,STEAM45K,a5@example.com\nAW-6,STEAM90K,a6@example.com\n"
                + "AW-7,STEAM45K,a7@example.com\nAW-8,STEAM90K,a8@example.com\n");
        Process p = run.start();

        Poll.until("all 8 orders made", Duration.ofSeconds(60), () -> main.ledger().size() + dfz.ledger().size(),
                n -> n >= 8 || !p.isAlive(), run::output);
        String mainFirst = ledgerRefs(main);
        assertThat(mainFirst).as(run.output()).isEqualTo("AW-1,AW-2,AW-5,AW-7");
        assertThat(ledgerRefs(dfz)).as(run.output()).isEqualTo("AW-3,AW-4,AW-6,AW-8");

        // unsigned, each at its account's address: a hint, that account is asked at once (no look-up is due for 75 s)
        long checksAtMain = operations(main, "check-order");
        long sentAtDfz = operations(dfz, "create-order");
        hintUntilAsked("/webhook/main", mainHook("AW-7", "STEAM45K", "a7@example.com", "success", null), "main asked about AW-7",
                () -> operations(main, "check-order") > checksAtMain);
        hintUntilAsked("/webhook/dfz", dfzHook("AW-8", "STEAM90K", "a8@example.com", "Sukses"),
                "dfz asked about AW-8 (the same transaction sent again)", () -> operations(dfz, "create-order") > sentAtDfz);

        // forged failures: none may settle anything
        // signed with the other account's secret, each in its address's own scheme
        post("/webhook/main", mainHook("AW-5", "STEAM45K", "a5@example.com", "failed", DFZ_SECRET), null);
        byte[] dfzSignedByMain = dfzHook("AW-6", "STEAM90K", "a6@example.com", "Gagal");
        post("/webhook/dfz", dfzSignedByMain, hub(MAIN_SECRET, dfzSignedByMain));
        // validly signed by one account, naming the other account's order
        byte[] namesMainsOrder = dfzHook("AW-5", "STEAM45K", "a5@example.com", "Gagal");
        post("/webhook/dfz", namesMainsOrder, hub(DFZ_SECRET, namesMainsOrder));
        post("/webhook/main", mainHook("AW-6", "STEAM90K", "a6@example.com", "failed", MAIN_SECRET), null);
        // validly signed, at the plain address (twice: it is explained once) and at an address of no account
        post("/webhook", mainHook("AW-5", "STEAM45K", "a5@example.com", "failed", MAIN_SECRET), null);
        post("/webhook", mainHook("AW-5", "STEAM45K", "a5@example.com", "failed", MAIN_SECRET), null);
        assertThat(post("/webhook/other", mainHook("AW-5", "STEAM45K", "a5@example.com", "failed", MAIN_SECRET), null)).isEqualTo("ignored");
        // malformed and huge
        assertThat(post("/webhook/dfz", "{\"data\": [".getBytes(StandardCharsets.UTF_8), "sha1=00")).isEqualTo("ignored");
        assertThat(post("/webhook/main", new byte[200_000], null)).isEqualTo("ignored");

        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the run ends once every row is final; its output:\n%s", run.output())
                .isTrue();
        String out = run.output();
        assertThat(p.exitValue()).as(out).isZero();
        Report report = Report.read(run.reports, "hooks", ',');
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(report.rows()).as(out).hasSize(8);
        for (Map<String, String> row : report.rows()) {
            soft.assertThat(row.get("status")).as("%s, no forged failure taken: %s\n%s", row.get("ref_id"), row, out)
                    .isEqualTo("success");
        }
        soft.assertThat(main.ledger()).as(out).allSatisfy(e -> assertThat(e.status()).isEqualTo("success"));
        soft.assertThat(dfz.ledger()).as(out).allSatisfy(e -> assertThat(e.status()).isEqualTo("success"));
        soft.assertThat(ledgerRefs(main)).as("no order twice at main").isEqualTo(mainFirst);
        // settled by their own account's webhook, not by a look-up (a look-up first would leave the webhook nothing to do)
        soft.assertThat(out).as(out).contains(
                "Order AW-1 is success (signed webhook at account main)",
                "Order AW-2 is success (signed webhook at account main)",
                "Order AW-3 is success (signed webhook at account dfz)",
                "Order AW-4 is success (signed webhook at account dfz)",
                "Webhooks of account main are taken at /webhook/main: signed ones settle its orders",
                "Webhooks of account dfz are taken at /webhook/dfz: signed ones settle its orders",
                "webhooks at http://127.0.0.1:" + port + "/webhook/main, /webhook/dfz");
        soft.assertThat(out).as(out).doesNotContain("is failed", MAIN_SECRET, DFZ_SECRET);
        soft.assertThat(out.lines().filter(l -> l.contains("A webhook arrived at the plain webhook path")))
                .as("the plain address explained once:\n%s", out).hasSize(1);
        String summaries = out.lines().filter(l -> l.contains("settled nothing")).collect(Collectors.joining("\n"));
        soft.assertThat(summaries).as(out).contains("signed for an account its order is not at (taken as hints)",
                "without a valid signature (taken as hints)", "at the address of no account",
                "at the plain address, which with several accounts verifies none (taken as hints)", "unreadable");
        soft.assertAll();
        System.out.println("ACCOUNT WEBHOOKS: " + out.lines().filter(l -> l.contains("WebhookReceiver"))
                .collect(Collectors.joining("\n")));
    }

    private static String ledgerRefs(SandboxProvider sandbox) {
        return sandbox.ledger().stream().map(LedgerEntry::refId).sorted().collect(Collectors.joining(","));
    }

    private static long operations(SandboxProvider sandbox, String operation) {
        return sandbox.stats().requestsPerOperation().getOrDefault(operation, 0L);
    }

    /** The default dialect's webhook, signed md5(secret + ref_id + status) when {@code secret} is given. */
    private static byte[] mainHook(String refId, String sku, String customer, String status, String secret) {
        String signature = secret == null ? "" : ",\"signature\":\"" + DigestUtils.md5Hex(secret + refId + status) + "\"";
        return ("{\"event\":\"order.updated\",\"data\":{\"ref_id\":\"" + refId + "\",\"product_sku\":\"" + sku + "\","
                + "\"customer_no\":\"" + customer + "\",\"status\":\"" + status + "\",\"serial_number\":null,"
                + "\"price\":46000,\"message\":\"forged\"}" + signature + "}").getBytes(StandardCharsets.UTF_8);
    }

    /** Digiflazz's webhook body (docs/digiflazz.md); signed in the X-Hub-Signature header. */
    private static byte[] dfzHook(String refId, String sku, String customer, String status) {
        return ("{\"data\":{\"trx_id\":\"5f1c0b6e2a9d4c8b7e3f1a20\",\"ref_id\":\"" + refId + "\",\"customer_no\":\""
                + customer + "\",\"buyer_sku_code\":\"" + sku + "\",\"message\":\"Transaksi " + status + "\",\"status\":\""
                + status + "\",\"rc\":\"00\",\"sn\":\"\",\"price\":46000}}").getBytes(StandardCharsets.UTF_8);
    }

    private static String hub(String secret, byte[] body) {
        return "sha1=" + new HmacUtils(HmacAlgorithms.HMAC_SHA_1, secret).hmacHex(body);
    }

    /**
     * Posts an unsigned hint, again every 2 s, until the account is asked about the order (at most 20 s). A hint
     * that arrives while the create-order's answer is still being journaled is overtaken by that answer's
     * schedule (the first look-up 75 s on); each later one meets a pending order, and it is asked at once.
     */
    private void hintUntilAsked(String path, byte[] hint, String asked, java.util.function.BooleanSupplier askedYet)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        do {
            assertThat(post(path, hint, null)).isEqualTo("ok");
            if (Poll.atMost(Duration.ofSeconds(2), askedYet::getAsBoolean, yes -> yes)) {
                return;
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("not within 20 s of hints: " + asked + "\n" + run.output());
    }

    /** Posts a webhook to the run's receiver; returns the answer's body, which must come with HTTP 200. */
    private String post(String path, byte[] body, String hubSignature) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + run.webhookPort() + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (hubSignature != null) {
            request.header("X-Hub-Signature", hubSignature);
        }
        HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as("%s answered %s", path, answer.body()).isEqualTo(200);
        return answer.body();
    }
}
