package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.Poll;

/**
 * A new user's trial on the embedded sandbox, with the built jar: the sandbox's orders outlive a
 * SIGKILL, {@code plan} shows the account the service uses and keeps its stdout for its output,
 * going live in the trial's data folder is refused, and the jar explains itself.
 */
class TrialRunE2ETest {

    /** GI60 settles later (pending first), TSEL10 at once. */
    static final String BATCH = "ref_id,product_sku,customer_no,customer_no_zone\n"
            + "T-1,GI60,812345678,os_asia\nT-2,TSEL10,081234567890,\n";

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    final JarRun run = product.run();
    SandboxProvider live;

    @Test
    void a_trial_keeps_its_sandbox_account_and_going_live_in_its_folder_is_refused() throws Exception {
        // a pending order at a SIGKILL: written to the sandbox's state before the run was told about it
        run.env.put("TOPUP_SANDBOX_SETTLE_DELAY", "4s");
        // Without the kept state the run ends 3 with T-1 pending. The restarted sandbox settles the
        // overdue T-1 at once, and its webhook may reach the product before the webhook route has
        // started (refused or 404); the start looks T-1 up within 5 s (StartupChecks), and the 90 s
        // leave room for the sandbox's next webhook try, a minute later, on a loaded machine.
        run.env.put("TOPUP_PENDING_TIMEOUT", "90s");
        run.drop("trial.csv", BATCH);
        Path state = run.data.resolve("sandbox/state.json");
        run.start();
        Poll.atMost(Duration.ofSeconds(60), () -> Files.exists(state) && Files.readString(state).contains("\"T-1\""), Boolean.TRUE::equals);
        assertThat(state).as(run.output()).content().contains("\"T-1\"");
        run.kill();
        String first = run.output();
        assertThat(first.lines().findFirst().orElse("")).as(first).contains("WARN").contains("EMBEDDED SANDBOX IN USE");

        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        String second = run.output();
        assertThat(second).contains("Ready: taking the batches in " + run.inbox.toAbsolutePath() + " now (mode once)");
        JsonNode summary = new ObjectMapper().readTree(run.reports.resolve("trial.summary.json").toFile());
        assertThat(summary.get("success").asInt()).as(second).isEqualTo(2);
        long charged = summary.get("charged").asLong();
        byte[] stateAfterRun = Files.readAllBytes(state);

        // plan: the account the service ordered from, not a fresh sandbox; stdout is the plan alone
        Command plan = command("plan", run.inbox.resolve("../trial-again.csv").toString(), BATCH);
        assertThat(plan.exit).as(plan.stderr).isEqualTo(2); // both ref_ids are used already
        assertThat(plan.stdout).startsWith("Plan of trial-again.csv");
        assertThat(plan.stdout).doesNotContain(" INFO ").doesNotContain("RateBudget");
        assertThat(plan.stdout).contains("Balance:  " + rupiah(SandboxConfig.defaults().balance() - charged) + ";");

        // going live in the same folder: refused in one line, the trial journal untouched
        live = product.startSandbox(SandboxConfig.defaults());
        run.provider(live.baseUrl());
        run.env.remove("TOPUP_SANDBOX_SETTLE_DELAY");
        run.drop("live.csv", BATCH.replace("T-", "L-"));
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("topup-batch cannot start: the journal in " + run.data
                + "/ holds the embedded sandbox's trial orders; use a fresh topup.data (TOPUP_DATA) or a fresh"
                + " topup.db.url for the provider at 127.0.0.1").doesNotContain("Exception");
        assertThat(live.ledger()).isEmpty();
        assertThat(run.inbox.resolve("live.csv")).exists();
        assertThat(Files.readAllBytes(state)).isEqualTo(stateAfterRun); // plan never wrote the state
    }

    @Test
    void help_prints_the_usage_and_exits_0_an_unknown_argument_exits_1() throws Exception {
        for (String help : List.of("--help", "help", "-h")) {
            Command c = command(help);
            assertThat(c.exit).as(help).isZero();
            assertThat(c.stdout).startsWith("Usage: java -jar topup-batch.jar [COMMAND]").contains("plan FILE.csv")
                    .contains("docs/settings.md");
        }
        Command unknown = command("--hepl");
        assertThat(unknown.exit).isEqualTo(1);
        assertThat(unknown.stderr).startsWith("topup-batch: unknown argument '--hepl'").contains("Usage:");
    }

    private record Command(int exit, String stdout, String stderr) {
    }

    /** The jar with the run's settings, stdout and stderr apart; the last argument of plan is the file's content. */
    private Command command(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(args));
        if (args[0].equals("plan")) {
            Files.writeString(Path.of(args[1]), args[2], StandardCharsets.UTF_8);
            argv.remove(2);
        }
        List<String> cmd = new ArrayList<>(List.of(BuiltJar.java(),
                "-jar", BuiltJar.path().toAbsolutePath().toString()));
        cmd.addAll(argv);
        Path out = home.resolve("command.out");
        Path err = home.resolve("command.err");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(run.env);
        Process p = pb.start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the command did not end");
        }
        return new Command(p.exitValue(), read(out), read(err));
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** As the plan prints amounts: Rp 9.705.785. */
    private static String rupiah(long amount) {
        return "Rp " + String.format(java.util.Locale.ROOT, "%,d", amount).replace(',', '.');
    }
}
