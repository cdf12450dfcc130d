package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LostAnswerMode;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * The built jar ordering through the Digiflazz dialect (topup.dialect=digiflazz) from a sandbox
 * speaking Digiflazz's buyer API: signed requests, max_price, rc codes, pending orders settled by
 * signed X-Hub-Signature webhooks or by re-sending the same ref_id, on H2 and PostgreSQL; then lost
 * answers and a SIGKILL in the middle, after which re-sending under the same ref_ids settles every
 * row and the ledger holds no order twice.
 */
class DigiflazzE2ETest {

    static final String WEBHOOK_SECRET = "whsec-df-Qq7Lp2";

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    SandboxProvider sandbox;
    final JarRun run = product.run();

    private void startSandbox(SandboxConfig config) {
        sandbox = product.startSandbox(config.setDialect(SandboxDialect.DIGIFLAZZ));
        run.env.put("TOPUP_DIALECT", "digiflazz");
        run.env.put("TOPUP_BASE_URL", sandbox.baseUrl());
        run.env.put("TOPUP_API_KEY", sandbox.config().username());
        run.env.put("TOPUP_API_SECRET", sandbox.config().apiKey());
        run.env.put("TOPUP_RATE_LIMIT", "300");
    }

    static String batch(String prefix, int plain) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        csv.append(prefix).append("-ML,ML86,123456789 (2345),\n");       // a game, the zone inside the number
        csv.append(prefix).append("-MLZ,ML86,123456780,2345\n");        // and in its own column
        csv.append(prefix).append("-BAD,XL10,081700000000,\n");           // the sandbox's 0000 rule: refused number
        csv.append(prefix).append("-DOWN,FF100,12345678,\n");             // product down at the provider
        for (int i = 0; i < plain; i++) {
            csv.append(prefix).append("-").append(i).append(",TSEL10,08121234").append(String.format("%04d", 1 + i)).append(",\n");
        }
        return csv.toString();
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void a_batch_is_ordered_and_settled_through_digiflazz(JournalDatabase journal) throws Exception {
        if (journal == JournalDatabase.POSTGRESQL) {
            run.journalOn(ProductFixture.postgresDatabase());
        }
        startSandbox(SandboxConfig.defaults().setSeed(61L).setUnavailable(List.of("FF100"))
                .setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(1500)))
                .setWebhookSecret(WEBHOOK_SECRET)
                .setWebhookUrl("http://127.0.0.1:" + run.webhookPort() + "/webhook"));
        run.env.put("TOPUP_WEBHOOK_SECRET", WEBHOOK_SECRET);
        run.env.put("TOPUP_OUTAGE_WAIT", "3s");
        run.env.put("TOPUP_OUTAGE_RECHECK", "1s");
        run.drop("evening.csv", batch("DF", 12));

        int exit = run.runOnce(Duration.ofSeconds(120));
        String log = run.output();

        assertThat(exit).as(log).isIn(0, 2);
        Report report = Report.read(run.reports, "evening", ',');
        Map<String, Map<String, String>> byRef = report.rows().stream()
                .collect(Collectors.toMap(r -> r.get("ref_id"), r -> r));
        assertThat(byRef.get("DF-ML").get("status")).as(log).isEqualTo("success");
        assertThat(byRef.get("DF-MLZ").get("status")).as(log).isEqualTo("success");
        for (int i = 0; i < 12; i++) {
            assertThat(byRef.get("DF-" + i).get("status")).as("DF-%d\n%s", i, log).isEqualTo("success");
        }
        assertThat(byRef.get("DF-BAD").get("status")).isEqualTo("failed");
        assertThat(byRef.get("DF-BAD").get("message")).contains("rc 54");
        assertThat(byRef.get("DF-DOWN").get("status")).isEqualTo("rejected");
        assertThat(sandbox.ledger()).extracting(e -> e.refId()).doesNotContain("DF-DOWN");
        assertThat(log).contains("(signed webhook)")
                .doesNotContain(WEBHOOK_SECRET).doesNotContain(sandbox.config().apiKey());
        LedgerCheck.assertConsistent(sandbox, List.of(report));
    }

    /**
     * Answers lost on the way back (the order made or not), then the process killed while sending:
     * the restarted run sends the unknown orders again under their ref_ids, which Digiflazz answers
     * with the existing transaction, so every row ends final and no ref_id is in the ledger twice.
     */
    @Test
    void lost_answers_and_a_kill_leave_no_order_twice() throws Exception {
        startSandbox(SandboxConfig.defaults().setSeed(67L).setLostAnswerRate(0.25).setLostAnswerMode(LostAnswerMode.MIXED)
                .setSettleDelay(DurationRange.of(Duration.ofMillis(200), Duration.ofMillis(2000))));
        run.env.put("TOPUP_WEBHOOK_PORT", "0"); // no webhooks: pending orders are settled by re-sending alone
        run.env.put("TOPUP_HTTP_RESPONSE_TIMEOUT", "2s");
        run.env.put("TOPUP_RATE_LIMIT", "300");
        run.drop("night.csv", batch("NK", 40));
        Process first = run.start();
        Poll.until("a third of the batch ordered", Duration.ofSeconds(90), () -> sandbox.ledger().size() >= 14);
        run.kill(); // SIGKILL while sending

        int exit = run.runOnce(Duration.ofSeconds(180));
        String log = run.output();
        assertThat(exit).as(log).isIn(0, 2);
        Report report = Report.read(run.reports, "night", ',');
        assertThat(report.rows()).hasSize(44);
        assertThat(report.rows()).extracting(r -> r.get("status")).doesNotContain("pending", "unknown");
        assertThat(sandbox.stats().toString()).isNotEmpty();
        System.out.println("DIGIFLAZZ KILL: ledger " + sandbox.ledger().size() + " orders; report "
                + report.rows().stream().collect(Collectors.groupingBy(r -> r.get("status"), Collectors.counting())));
        LedgerCheck.assertConsistent(sandbox, List.of(report));
    }
}
