package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * The nightly once run with an operator's hand on it (issue 37), on both journals: the batch is held
 * after about 10 orders and resumed 15 s later; the run waits for the held batch as for pending
 * orders instead of ending on it, finishes the batch after the resume, and exits 0 with every row
 * reported and no order twice.
 */
class HoldInOnceRunE2ETest {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    static final int ROWS = 60;
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
        // one order at a time, two a second: after the hold the batch has some 25 s of orders left, so
        // that a loaded machine's slow command JVM still holds it mid-flight
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(37L)
                .setLatency(DurationRange.of(Duration.ofMillis(400), Duration.ofMillis(600))), 0);
        run.provider(sandbox.baseUrl());
        run.env.put("TOPUP_SUBMIT_CONCURRENCY", "1");
        run.env.put("TOPUP_MODE", "once");
        // long enough for the operator's 15 s, short enough that a forgotten hold ends a night's run
        run.env.put("TOPUP_PENDING_TIMEOUT", "90s");
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
        command.env.remove("TOPUP_MODE");
        Process p = command.start(args);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("the command ends").isTrue();
        return p.exitValue();
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void a_batch_held_and_resumed_15_s_later_is_finished_in_the_same_once_run(JournalDatabase journal) throws Exception {
        run.journalOn(journal, POSTGRES);
        run.drop("nightly.csv", OperatorHandE2ETest.batch(ROWS));
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
        assertThat(sentWhileHeld).as("the held batch stopped short of its end").isLessThan(ROWS);

        assertThat(command("resume", "nightly.csv")).as(command.output()).isZero();
        assertThat(command.output()).contains("goes on");
        assertThat(product.waitFor(2, TimeUnit.MINUTES)).as("the run ends after the resume").isTrue();
        assertThat(product.exitValue()).as("every order final in this run:\n" + run.output()).isZero();
        assertThat(sandbox.ledger()).as("the rest of the batch sent after the resume").hasSize(ROWS)
                .hasSizeGreaterThan(sentWhileHeld);
        assertThat(sentAtHold).isGreaterThanOrEqualTo(10);

        Report report = Report.read(run.reports, "nightly", ',');
        assertThat(report.rows()).hasSize(ROWS).allSatisfy(r -> assertThat(r.get("status")).isEqualTo("success"));
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        if (journal == JournalDatabase.POSTGRESQL) {
            assertThat(run.rowsJournaledFor("nightly.csv")).isEqualTo(ROWS);
        }
    }
}
