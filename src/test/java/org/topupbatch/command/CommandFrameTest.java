package org.topupbatch.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.OperatorAction;
import org.topupbatch.intake.UnreadableBatchException;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalInUseException;
import org.topupbatch.provider.PriceListUnavailableException;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.settings.SettingsException;

/**
 * The one place where a command's failure becomes what the operator sees: each failure a command
 * may meet ends as its documented exit code and exactly one line on the command's error stream,
 * {@code topup-batch: ...} (docs/operating.md#operating-it-plan-status-cancel-hold-resume-reconcile-retry-failed), with no stack trace and nothing on stdout.
 */
class CommandFrameTest {

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final CommandContext context = new CommandContext(Map.<String, String>of()::get,
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
            Clock.systemUTC());

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new CommandFailure("no batch 'x' in the journal"), 1, "topup-batch: no batch 'x' in the journal"),
                Arguments.of(new CommandFailure.Usage("report BATCH (a batch id, or an input file name)"), 1,
                        "topup-batch: usage: java -jar topup-batch.jar report BATCH (a batch id, or an input file name)"),
                Arguments.of(new SettingsException("topup.pending-timeout: 'soon' is not a time such as 90s, 30m or 2h"), 1,
                        "topup-batch: bad setting: topup.pending-timeout: 'soon' is not a time such as 90s, 30m or 2h"),
                Arguments.of(new JournalException("cannot open the journal at jdbc:h2:file:/x", new RuntimeException("inner")), 1,
                        "topup-batch: cannot open the journal at jdbc:h2:file:/x"),
                Arguments.of(new JournalInUseException("jdbc:h2:file:/x", null), 1, "topup-batch: "),
                Arguments.of(new ProviderException("balance", "INVALID_SIGNATURE", 401, false, "bad sign", null, null), 1,
                        "topup-batch: the provider could not be asked: it refused the credentials (INVALID_SIGNATURE)"),
                Arguments.of(new ProviderException("balance", "TIMEOUT", 0, false, null, null, null), 1,
                        "topup-batch: the provider could not be asked: balance: TIMEOUT"),
                Arguments.of(new PriceListUnavailableException("price list: HTTP 503", null), 1,
                        "topup-batch: the provider could not be asked: price list: HTTP 503"),
                Arguments.of(new UnreadableBatchException("line 3: unclosed quote"), 1, "topup-batch: line 3: unclosed quote"),
                // what nobody foresaw: named by the command, still one line
                Arguments.of(new IllegalStateException("pool closed"), 1, "topup-batch: status failed: pool closed"),
                Arguments.of(new NullPointerException(), 1, "topup-batch: status failed: NullPointerException"));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void each_failure_ends_as_its_exit_code_and_one_line_without_a_stack_trace(RuntimeException failure, int exit,
            String line) {
        int code = CommandFrame.run("status", context, () -> {
            throw failure;
        });

        assertThat(code).isEqualTo(exit);
        assertThat(err()).startsWith(line).endsWith(System.lineSeparator());
        assertThat(err().strip().lines()).hasSize(1);
        assertThat(err()).doesNotContain("\tat ", "Exception:", "Caused by");
        assertThat(out()).isEmpty();
    }

    @Test
    void a_command_that_did_its_work_keeps_its_exit_code_and_says_nothing_more() {
        assertThat(CommandFrame.run("plan", context, () -> 2)).isEqualTo(2);
        assertThat(err()).isEmpty();
    }

    @Test
    void a_value_with_line_breaks_cannot_forge_a_second_line() {
        int code = CommandFrame.run("report", context, () -> {
            throw new CommandFailure("no batch 'a\ntopup-batch: forged' in the journal");
        });

        assertThat(code).isEqualTo(1);
        assertThat(err().strip().lines()).containsExactly("topup-batch: no batch 'a\\ntopup-batch: forged' in the journal");
    }

    /**
     * The operator's own argument, with a line break, echoed by the real commands as they fail: one
     * line still (before the frame each command printed it raw, and a second "topup-batch:" line could be forged).
     */
    @ParameterizedTest
    @ValueSource(strings = {"status", "report", "retry-failed", "hold"})
    void a_batch_argument_with_a_line_break_is_named_on_one_line(String command, @TempDir Path data) {
        CommandContext here = new CommandContext(Map.of("topup.data", data.toString())::get, context.out(), context.err(),
                Clock.systemUTC());
        List<String> args = List.of("nightly\ntopup-batch: forged");
        Command run = switch (command) {
            case "status" -> new StatusCommand(here);
            case "report" -> new ReportCommand(here);
            case "retry-failed" -> new RetryFailedCommand(here);
            default -> new BatchControlCommand(OperatorAction.HOLD, here);
        };

        int code = run.run(args);

        assertThat(code).isEqualTo(1);
        assertThat(err().strip().lines()).singleElement().asString()
                .startsWith("topup-batch: no batch 'nightly\\ntopup-batch: forged' in the journal");
        assertThat(out()).isEmpty();
    }

    @Test
    void a_bad_setting_is_said_when_the_command_first_asks_for_the_settings() {
        CommandContext bad = new CommandContext(Map.of("topup.pending-timeout", "soon")::get, context.out(), context.err(),
                Clock.systemUTC());

        int code = CommandFrame.run("status", bad, () -> bad.settings().folders().data().hashCode());

        assertThat(code).isEqualTo(1);
        assertThat(err().strip().lines()).singleElement().asString()
                .startsWith("topup-batch: bad setting: topup.pending-timeout: 'soon'");
    }

    @Test
    void a_command_speaking_with_its_own_voice_says_its_failure_there() {
        CommandContext migrate = context.speaking("topup-batch migrate-journal: ", context.out());

        int code = CommandFrame.run("migrate-journal", migrate, () -> {
            throw new CommandFailure("no H2 journal at /x");
        });

        assertThat(code).isEqualTo(1);
        assertThat(out()).isEqualTo("topup-batch migrate-journal: no H2 journal at /x" + System.lineSeparator());
        assertThat(err()).isEmpty();
    }

    /**
     * plan and reconcile on the frame too: the operator's argument with a line break, and a bad setting,
     * each said on one line (before, plan printed the file name raw, and a second line could be forged).
     */
    @ParameterizedTest
    @ValueSource(strings = {"plan", "reconcile"})
    void plan_and_reconcile_name_an_argument_with_a_line_break_on_one_line(String command, @TempDir Path data) {
        CommandContext here = new CommandContext(Map.of("topup.data", data.toString())::get, context.out(), context.err(),
                Clock.systemUTC());
        Command run = command.equals("plan") ? new PlanCommand(here) : new ReconcileCommand(here);

        int code = run.run(List.of("nightly\ntopup-batch: forged"));

        assertThat(code).isEqualTo(1);
        assertThat(err().strip().lines()).singleElement().asString().startsWith(command.equals("plan")
                ? "topup-batch: cannot read nightly\\ntopup-batch: forged: no such file"
                : "topup-batch: cannot reconcile: 'nightly\\ntopup-batch: forged' is not a day");
        assertThat(out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"plan", "reconcile"})
    void plan_and_reconcile_say_a_bad_setting_and_their_usage_in_one_line(String command, @TempDir Path data) throws Exception {
        java.nio.file.Path batch = java.nio.file.Files.writeString(data.resolve("b.csv"), "ref_id\n");
        CommandContext bad = new CommandContext(Map.of("topup.data", data.toString(), "topup.pending-timeout", "soon")::get,
                context.out(), context.err(), Clock.systemUTC());
        Command run = command.equals("plan") ? new PlanCommand(bad) : new ReconcileCommand(bad);

        assertThat(run.run(List.of(command.equals("plan") ? batch.toString() : "2026-01-01"))).isEqualTo(1);
        assertThat(run.run(List.of("a", "b"))).isEqualTo(1);

        assertThat(err().strip().lines()).hasSize(2);
        assertThat(err().strip().lines().toList().get(0)).startsWith("topup-batch: bad setting: topup.pending-timeout: 'soon'");
        assertThat(err().strip().lines().toList().get(1)).startsWith("topup-batch: usage: java -jar topup-batch.jar " + command);
        assertThat(out()).isEmpty();
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
