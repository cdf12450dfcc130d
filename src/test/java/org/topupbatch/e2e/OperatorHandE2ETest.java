package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.PostgresServer;

/**
 * The operator's hand on a running service, on both journals: {@code hold}, {@code resume} and
 * {@code cancel} from another process stop and restart the sending within 2 s, {@code status} shows
 * it, and a cancelled batch is reported at once with its unsent rows rejected as cancelled. In a
 * once run (issue 37) a batch held after about 10 orders and resumed 15 s later is waited for as
 * pending orders are, and finished in that run: exit 0, every row reported, no order twice.
 */
class OperatorHandE2ETest {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    static final Duration TAKES_EFFECT = Duration.ofSeconds(2);
    static final int ROWS = 60;
    static final int NIGHTLY_ROWS = 60;
    static final Duration HELD_FOR = Duration.ofSeconds(15);

    @TempDir
    Path home;
    SandboxProvider sandbox;
    JarRun run;
    JarRun command;

    @BeforeEach
    void start() throws Exception {
        run = new JarRun(home);
        command = new JarRun(home.resolve("command"));
        // one order at a time, a few a second: the batch is mid-flight for a while
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(23L)
                .setLatency(DurationRange.of(Duration.ofMillis(150), Duration.ofMillis(250))), 0);
        run.provider(sandbox.baseUrl());
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
        run.env.put("TOPUP_SUBMIT_CONCURRENCY", "1");
    }

    @AfterEach
    void stop() throws Exception {
        run.kill();
        command.kill();
        sandbox.close();
    }

    private int command(String... args) throws Exception {
        command.env.clear();
        command.env.putAll(run.env);
        Process p = command.start(args);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("the command ends").isTrue();
        return p.exitValue();
    }

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
        run.journalOn(journal, POSTGRES);
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Rate budget:");
        run.drop("wrong.csv", batch(ROWS));
        Poll.until("a few orders placed", Duration.ofSeconds(60), () -> sandbox.ledger().size() >= 3);

        assertThat(command("hold", "wrong.csv")).as(command.output()).isZero();
        assertThat(command.output()).contains("is held:").contains("rows queued stay unsent until 'resume 1'");
        int held = stoppedWithin(TAKES_EFFECT);
        assertThat(held).isLessThan(ROWS);
        assertThat(command("status", "wrong.csv")).as(command.output()).isZero();
        assertThat(command.output()).containsPattern("wrong.csv\\s+" + ROWS + "\\s.*\\sheld\\s")
                .contains("Held by the operator since").contains("'resume 1'");
        assertThat(command("hold", "1")).isZero();
        assertThat(command.output()).contains("is held already");

        assertThat(command("resume", "wrong.csv")).as(command.output()).isZero();
        assertThat(command.output()).contains("goes on:");
        Poll.until("orders again after resume", Duration.ofSeconds(10), () -> sandbox.ledger().size() > held + 2);

        assertThat(command("cancel", "wrong.csv")).as(command.output()).isZero();
        assertThat(command.output()).containsPattern("is cancelled: \\d+ rows not yet sent will never be sent");
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
        assertThat(command("cancel", "wrong.csv")).isZero();
        assertThat(command.output()).contains("was cancelled already");
        assertThat(command("hold", "wrong.csv")).isZero();
        assertThat(command.output()).contains("nothing is left to hold");
        assertThat(command("cancel", "never-seen.csv")).isEqualTo(1);
        assertThat(command.output()).contains("no batch 'never-seen.csv' in the journal");
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
        run.journalOn(journal, POSTGRES);
        int rows = NIGHTLY_ROWS;
        run.drop("nightly.csv", batch(rows));
        Process product = run.start();
        Poll.until("about 10 orders placed", Duration.ofSeconds(90), () -> sandbox.ledger().size() >= 10 || !product.isAlive());
        assertThat(product.isAlive()).as("the run is still sending: " + run.output()).isTrue();

        assertThat(command("hold", "nightly.csv")).as(command.output()).isZero();
        assertThat(command.output()).contains("is held");
        Instant held = Instant.now();
        int sentAtHold = sandbox.ledger().size();
        // the operator's 15 s: the run must not end on the held batch meanwhile
        Instant resumeAt = held.plus(HELD_FOR);
        while (Instant.now().isBefore(resumeAt)) {
            assertThat(product.isAlive()).as("the once run waits for the held batch instead of ending on it (exit %s):\n%s",
                    product.isAlive() ? "-" : product.exitValue(), run.output()).isTrue();
            product.waitFor(250, TimeUnit.MILLISECONDS);
        }
        int sentWhileHeld = sandbox.ledger().size();
        assertThat(sentWhileHeld).as("the held batch stopped short of its end").isLessThan(rows);

        assertThat(command("resume", "nightly.csv")).as(command.output()).isZero();
        assertThat(command.output()).contains("goes on");
        assertThat(product.waitFor(2, TimeUnit.MINUTES)).as("the run ends after the resume").isTrue();
        assertThat(product.exitValue()).as("every order final in this run:\n" + run.output()).isZero();
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
