package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * The operator's hand on a running service, on both journals: {@code hold}, {@code resume} and
 * {@code cancel} from another process stop and restart the sending within 2 s, {@code status} shows
 * it, and a cancelled batch is reported at once with its unsent rows rejected as cancelled. In a
 * once run (issue 37) a batch held after about 10 orders and resumed 15 s later is waited for as
 * pending orders are, and finished in that run: exit 0, every row reported, no order twice.
 */
class OperatorHandE2ETest {

    static final Duration TAKES_EFFECT = Duration.ofSeconds(2);
    // at the sandbox's 2 orders a second, 100 s of sending: a hold and a cancel each cost a command JVM
    // (4-5 s at load 5, up to 24 s at load 26), and 60 rows could all be sent before the cancel took
    static final int ROWS = 200;
    static final int NIGHTLY_ROWS = 60;
    static final Duration HELD_FOR = Duration.ofSeconds(15);

    // one order at a time, a few a second: the batch is mid-flight for a while
    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(23L)
                    .setLatency(DurationRange.of(Duration.ofMillis(150), Duration.ofMillis(250))))
            .env("TOPUP_WEBHOOK_PORT", "0").env("TOPUP_SUBMIT_CONCURRENCY", "1");
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    /** The ledger's size once it has stopped growing: it must stay so from {@link #TAKES_EFFECT} on. */
    private int stoppedWithin(Duration effect) throws InterruptedException {
        Thread.sleep(effect.toMillis());
        int settled = sandbox.ledger().size();
        Thread.sleep(2_000);
        assertThat(sandbox.ledger()).as("no order after the command took effect").hasSize(settled);
        return settled;
    }

    static String batch(int rows) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        for (int i = 1; i <= rows; i++) {
            csv.append("OP-").append(i).append(",FF100,").append(30_000_000 + i).append(",\n");
        }
        return csv.toString();
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void hold_resume_and_cancel_act_on_the_running_service_within_two_seconds(JournalDatabase journal) throws Exception {
        product.journalOn(journal);
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Rate budget:");
        run.drop("wrong.csv", batch(ROWS));
        Poll.until("a few orders placed", Duration.ofSeconds(60), () -> sandbox.ledger().size() >= 3);

        assertThat(product.command("hold", "wrong.csv")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("is held:").contains("rows queued stay unsent until 'resume 1'");
        int held = stoppedWithin(TAKES_EFFECT);
        assertThat(held).isLessThan(ROWS);
        assertThat(product.command("status", "wrong.csv")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).containsPattern("wrong.csv\\s+" + ROWS + "\\s.*\\sheld\\s")
                .contains("Held by the operator since").contains("'resume 1'");
        assertThat(product.command("hold", "1")).isZero();
        assertThat(product.commandOutput()).contains("is held already");

        assertThat(product.command("resume", "wrong.csv")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("goes on:");
        Poll.until("orders again after resume", Duration.ofSeconds(10), () -> sandbox.ledger().size() > held + 2);

        assertThat(product.command("cancel", "wrong.csv")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).containsPattern("is cancelled: \\d+ rows not yet sent will never be sent");
        int ordered = stoppedWithin(TAKES_EFFECT);
        assertThat(ordered).isLessThan(ROWS);
        // every sent order is final at once (instant product): the report follows within seconds
        Report report = Poll.until("the report of the cancelled batch", Duration.ofSeconds(10), () -> {
            try {
                return Report.read(run.reports, "wrong", ',');
            } catch (Exception e) {
                return null;
            }
        }, r -> r != null);
        assertThat(report.rows()).hasSize(ROWS);
        List<Map<String, String>> cancelled = report.rows().stream().filter(r -> r.get("status").equals("rejected")).toList();
        assertThat(cancelled).hasSize(ROWS - ordered).allSatisfy(r -> assertThat(r.get("message"))
                .matches("cancelled by the operator at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC; not sent"));
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(product.command("cancel", "wrong.csv")).isZero();
        assertThat(product.commandOutput()).contains("was cancelled already");
        assertThat(product.command("hold", "wrong.csv")).isZero();
        assertThat(product.commandOutput()).contains("nothing is left to hold");
        assertThat(product.command("cancel", "never-seen.csv")).isEqualTo(1);
        assertThat(product.commandOutput()).contains("no batch 'never-seen.csv' in the journal");
        assertThat(run.output()).contains("was cancelled by the operator").doesNotContain("Exception");
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void in_a_once_run_a_batch_held_and_resumed_15_s_later_is_finished_in_that_run(JournalDatabase journal) throws Exception {
        // two orders a second: after the hold the batch has some 25 s of orders left, so that a loaded
        // machine's slow command JVM still holds it mid-flight
        sandbox.config().setLatency(DurationRange.of(Duration.ofMillis(400), Duration.ofMillis(600)));
        run.env.put("TOPUP_MODE", "once");
        // long enough for the operator's 15 s, short enough that a forgotten hold ends a night's run
        run.env.put("TOPUP_PENDING_TIMEOUT", "90s");
        product.journalOn(journal);
        int rows = NIGHTLY_ROWS;
        run.drop("nightly.csv", batch(rows));
        Process service = run.start();
        Poll.until("about 10 orders placed", Duration.ofSeconds(90), () -> sandbox.ledger().size() >= 10 || !service.isAlive());
        assertThat(service.isAlive()).as("the run is still sending: " + run.output()).isTrue();

        assertThat(product.command("hold", "nightly.csv")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("is held");
        Instant held = Instant.now();
        int sentAtHold = sandbox.ledger().size();
        // the operator's 15 s: the run must not end on the held batch meanwhile
        Instant resumeAt = held.plus(HELD_FOR);
        while (Instant.now().isBefore(resumeAt)) {
            assertThat(service.isAlive()).as("the once run waits for the held batch instead of ending on it (exit %s):\n%s",
                    service.isAlive() ? "-" : service.exitValue(), run.output()).isTrue();
            service.waitFor(250, TimeUnit.MILLISECONDS);
        }
        int sentWhileHeld = sandbox.ledger().size();
        assertThat(sentWhileHeld).as("the held batch stopped short of its end").isLessThan(rows);

        // the rest of the batch need not crawl: what is proved from here is that it is all sent, once, in this run
        sandbox.config().setLatency(DurationRange.of(Duration.ofMillis(10), Duration.ofMillis(30)));
        assertThat(product.command("resume", "nightly.csv")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("goes on");
        assertThat(service.waitFor(2, TimeUnit.MINUTES)).as("the run ends after the resume").isTrue();
        assertThat(service.exitValue()).as("every order final in this run:\n" + run.output()).isZero();
        assertThat(sandbox.ledger()).as("the rest of the batch sent after the resume").hasSize(rows)
                .hasSizeGreaterThan(sentWhileHeld);
        assertThat(sentAtHold).isGreaterThanOrEqualTo(10);

        Report report = Report.read(run.reports, "nightly", ',');
        assertThat(report.rows()).hasSize(rows).allSatisfy(r -> assertThat(r.get("status")).isEqualTo("success"));
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        if (journal == JournalDatabase.POSTGRESQL) {
            assertThat(run.rowsJournaledFor("nightly.csv")).isEqualTo(rows);
        }
    }
}
