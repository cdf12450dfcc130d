package org.topupbatch.command;

import org.topupbatch.config.TopupApplication;
import org.topupbatch.settings.SettingsException;
import org.topupbatch.settings.SettingsLookup;

import org.topupbatch.settings.Settings;

import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.topupbatch.journal.OperatorAction;
import org.topupbatch.run.ExitCode;
import org.topupbatch.sandbox.SandboxMain;

/**
 * The jar's entry point: {@code java -jar topup-batch.jar} runs the product; the first argument
 * names a command instead ({@link #USAGE}).
 */
public final class TopupBatchMain {

    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: java -jar topup-batch.jar [COMMAND]",
            "",
            "  (no command)                    run the service: take the CSV batches of the inbox and order them",
            "  plan FILE.csv                   check a batch file before spending: rejected rows, cost, balance, time",
            "  status [BATCH]                  the latest batches from the journal, or one batch's waiting orders",
            "  report BATCH                    write a batch's report again from the journal",
            "  hold BATCH                      stop sending a batch's rows (they stay queued) until resume",
            "  resume BATCH                    send a held batch's rows again",
            "  cancel BATCH                    never send a batch's rows not yet sent (reported rejected); sent orders are tracked",
            "  reconcile [DAY]                 match a day's orders and balance with the provider's (default yesterday)",
            "  retry-failed BATCH              write the failed rows of a batch into the inbox under new ref_ids",
            "  resend-notices EVENT_ID|--given-up  send a given-up notice or callback again (status lists them)",
            "  migrate-journal --to JDBC_URL   move the H2 journal to PostgreSQL",
            "  migrate-journal                 bring the journal's schema up to date for this jar (H2: the product stopped)",
            "  compact-journal                 give back the disk space a stopped product's H2 journal no longer uses",
            "  sandbox [--port N] [--host H]   serve the sandbox provider alone",
            "  help                            this text",
            "",
            "Settings are topup.* properties (-Dtopup.mode=once) or TOPUP_* environment variables (TOPUP_MODE=once),",
            "documented in docs/settings.md#settings; without TOPUP_BASE_URL, TOPUP_API_KEY and TOPUP_API_SECRET",
            "the service orders from its embedded sandbox (nothing real is ordered).");

    private static final Set<String> HELP = Set.of("help", "--help", "-h");

    /**
     * The dispatch table: each operator command by name. Their output is stdout, so their log
     * lines go to stderr, warnings and errors only.
     */
    private static final Map<String, Supplier<Command>> COMMANDS = Map.ofEntries(
            Map.entry("plan", () -> new PlanCommand(context())),
            Map.entry("status", () -> new StatusCommand(context())),
            Map.entry("report", () -> new ReportCommand(context())),
            Map.entry("retry-failed", () -> new RetryFailedCommand(context())),
            Map.entry("resend-notices", () -> new ResendNoticesCommand(context())),
            Map.entry("migrate-journal", () -> new MigrateJournalCommand(context(), System.getenv())),
            Map.entry("compact-journal", () -> new CompactJournalCommand(context())),
            Map.entry("cancel", () -> new BatchControlCommand(OperatorAction.CANCEL, context())),
            Map.entry("hold", () -> new BatchControlCommand(OperatorAction.HOLD, context())),
            Map.entry("resume", () -> new BatchControlCommand(OperatorAction.RESUME, context())),
            Map.entry("reconcile", () -> new ReconcileCommand(context())));

    private TopupBatchMain() {
    }

    /** What a command of the jar works with: the standard settings, stdout, stderr, the system clock. */
    private static CommandContext context() {
        return new CommandContext(SettingsLookup.standard(), System.out, System.err, Clock.systemUTC());
    }

    public static void main(String[] args) {
        String name = args.length == 0 ? null : args[0];
        List<String> rest = args.length == 0 ? List.of() : Arrays.asList(args).subList(1, args.length);
        Supplier<Command> command = name == null ? null : COMMANDS.get(name);
        if (name == null) {
            runService();
        } else if (command != null) {
            // before the first logger exists: logback.xml reads both when it configures itself
            System.setProperty("topup.log.target", "System.err");
            System.setProperty("topup.log.level", "WARN");
            // the pool's and Flyway's own warnings come with stack traces; a command says what failed in its one line
            System.setProperty("topup.log.libraries", "OFF");
            // each command says its own failure in one line (CommandFrame): nothing escapes it
            System.exit(command.get().run(rest));
        } else if (HELP.contains(name)) {
            System.out.println(USAGE);
            System.exit(ExitCode.OK.code());
        } else if (name.equals("sandbox")) {
            SandboxMain.main(rest.toArray(String[]::new));
        } else {
            System.err.println("topup-batch: unknown argument '" + name + "'");
            System.err.println(USAGE);
            System.exit(ExitCode.FAILED.code());
        }
    }

    private static void runService() {
        SettingsLookup lookup = SettingsLookup.standard();
        Settings settings;
        try {
            settings = Settings.load(lookup);
        } catch (SettingsException e) {
            System.err.println("topup-batch: bad setting: " + e.getMessage());
            System.exit(ExitCode.FAILED.code());
            return;
        }
        System.exit(new TopupApplication(settings, lookup).run());
    }
}
