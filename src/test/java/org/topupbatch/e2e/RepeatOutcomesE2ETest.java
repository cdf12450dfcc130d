package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * The repeat guard judges on outcomes, not on timing (docs/batch-files-and-reports.md#rejected-rows, docs/money-guards.md),
 * on the built jar against the sandbox over HTTP: two files in one once run, the first ordering
 * Genshin top-ups the sandbox settles a second or so later, the second ordering the same again under
 * new ref_ids (the customer asks once more). A customer_no ending in 0000 is one the sandbox always
 * fails (docs/sandbox.md); its settle-delay knob makes the outcome late.
 */
class RepeatOutcomesE2ETest {

    /** A Genshin UID the sandbox fails (digits ending in 0000), and one it delivers. */
    static final String FAILS = "812340000";
    static final String DELIVERS = "812345001";
    static final String HEADER = "ref_id,product_sku,customer_no,customer_no_zone\n";

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    SandboxProvider sandbox;
    final JarRun run = product.run();

    void start(Duration settleFrom, Duration settleTo) throws Exception {
        run.env.put("TOPUP_REPEAT_WINDOW", "24h"); // the default, which JarRun turns off for the other tests
        sandbox = product.startSandbox(SandboxConfig.defaults().setSeed(37L)
                .setSettleDelay(DurationRange.of(settleFrom, settleTo))
                .setWebhookUrl("http://127.0.0.1:" + run.webhookPort() + "/webhook"));
        run.provider(sandbox.baseUrl());
    }

    List<LedgerEntry> ordersFor(String refId) {
        return sandbox.ledger().stream().filter(e -> e.refId().equals(refId)).toList();
    }

    static Map<String, String> row(Report report, String refId) {
        return report.rows().stream().filter(r -> r.get("ref_id").equals(refId)).findFirst().orElseThrow();
    }

    @Test
    void a_repeat_of_an_order_that_fails_late_is_ordered_once_after_the_failure() throws Exception {
        start(Duration.ofMillis(1000), Duration.ofMillis(1500));
        run.drop("a-first.csv", HEADER + "F-1,GI60," + FAILS + ",os_asia\n");
        run.drop("b-again.csv", HEADER + "F-2,GI60," + FAILS + ",os_asia\n");

        int exit = run.runOnce(Duration.ofMinutes(3));

        assertThat(exit).as(run.output()).isZero();
        assertThat(ordersFor("F-1")).extracting(LedgerEntry::status).containsExactly("failed");
        assertThat(ordersFor("F-2")).as("a failed order is no repeat: ordered, once").extracting(LedgerEntry::status)
                .containsExactly("failed");
        LedgerEntry first = ordersFor("F-1").get(0);
        LedgerEntry again = ordersFor("F-2").get(0);
        assertThat(again.createdAt()).as("ordered only after the first one failed").isAfterOrEqualTo(first.settledAt());
        Map<String, String> repeated = row(Report.read(run.reports, "b-again", ','), "F-2");
        assertThat(repeated.get("status")).as(repeated.toString()).isEqualTo("failed");
        assertThat(row(Report.read(run.reports, "a-first", ','), "F-1").get("status")).isEqualTo("failed");
    }

    @Test
    void a_repeat_of_an_order_that_succeeds_late_is_rejected_naming_its_ref_id_in_the_file_with_its_line()
            throws Exception {
        start(Duration.ofMillis(1000), Duration.ofMillis(1500));
        run.drop("a-first.csv", HEADER + "S-1,GI60," + DELIVERS + ",os_asia\n" + "S-1B,GI60," + DELIVERS + ",os_asia\n");
        run.drop("b-again.csv", HEADER + "S-2,GI60," + DELIVERS + ",os_asia\n");

        int exit = run.runOnce(Duration.ofMinutes(3));

        assertThat(exit).as(run.output()).isZero();
        assertThat(ordersFor("S-1")).extracting(LedgerEntry::status).containsExactly("success");
        assertThat(ordersFor("S-1B")).as("a repeat of a delivered order").isEmpty();
        assertThat(ordersFor("S-2")).as("a repeat of a delivered order").isEmpty();
        String again = ", for the same product and customer; write yes in allow_repeat to order it again";
        Map<String, String> inFile = row(Report.read(run.reports, "a-first", ','), "S-1B");
        assertThat(inFile.get("status")).isEqualTo("rejected");
        assertThat(inFile.get("message")).isEqualTo("repeats ref_id S-1 (line 2 of this file)" + again);
        Map<String, String> inLater = row(Report.read(run.reports, "b-again", ','), "S-2");
        assertThat(inLater.get("status")).isEqualTo("rejected");
        assertThat(inLater.get("message")).matches("repeats ref_id S-1 of batch \\d+ \\(a-first\\.csv\\), sent"
                + " \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC" + java.util.regex.Pattern.quote(again));
    }

    @Test
    void a_repeat_still_undecided_at_the_pending_timeout_is_reported_waiting_and_decided_by_the_next_run() throws Exception {
        start(Duration.ofSeconds(12), Duration.ofSeconds(13));
        run.env.put("TOPUP_PENDING_TIMEOUT", "3s");
        run.drop("a-first.csv", HEADER + "F-1,GI60," + FAILS + ",os_asia\n");
        run.drop("b-again.csv", HEADER + "F-2,GI60," + FAILS + ",os_asia\n");

        int exit = run.runOnce(Duration.ofMinutes(3));

        assertThat(exit).as("orders pending at the timeout: " + run.output()).isEqualTo(3);
        Map<String, String> waiting = row(Report.read(run.reports, "b-again", ','), "F-2");
        assertThat(waiting.get("status")).as(waiting.toString()).isEqualTo("pending");
        assertThat(waiting.get("message")).startsWith("waits for ref_id F-1 of batch ").contains("(a-first.csv)");
        assertThat(ordersFor("F-2")).as("not ordered while F-1 is undecided").isEmpty();

        // the provider fails F-1 while nothing runs; the next run learns it and orders F-2, once
        Poll.until("the sandbox to fail F-1", Duration.ofSeconds(60),
                () -> ordersFor("F-1").stream().anyMatch(e -> e.status().equals("failed")));
        run.env.put("TOPUP_PENDING_TIMEOUT", "2m");
        int next = run.runOnce(Duration.ofMinutes(3));

        assertThat(next).as(run.output()).isZero();
        assertThat(ordersFor("F-2")).extracting(LedgerEntry::status).containsExactly("failed");
        assertThat(row(Report.read(run.reports, "b-again", ','), "F-2").get("status")).isEqualTo("failed");
    }
}
