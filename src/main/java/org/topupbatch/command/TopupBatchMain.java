package org.topupbatch.command;

import org.topupbatch.config.TopupApplication;
import org.topupbatch.settings.SettingsException;
import org.topupbatch.settings.SettingsLookup;

import org.topupbatch.settings.Settings;

import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
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
            "  retry-failed BATCH              write the failed rows of a batch into the inbox under new ref_ids",
            "  migrate-journal --to JDBC_URL   move the H2 journal to PostgreSQL",
            "  compact-journal                 give back the disk space a stopped product's H2 journal no longer uses",
            "  sandbox [--port N] [--host H]   serve the sandbox provider alone",
            "  help                            this text",
            "",
            "Settings are topup.* properties (-Dtopup.mode=once) or TOPUP_* environment variables (TOPUP_MODE=once),",
            "documented in README.md, section \"Settings\"; without TOPUP_BASE_URL, TOPUP_API_KEY and TOPUP_API_SECRET",
            "the service orders from its embedded sandbox (nothing real is ordered).");

    private static final Set<String> HELP = Set.of("help", "--help", "-h");
    /** Commands whose output is stdout: their log lines go to stderr, warnings and errors only. */
    private static final Set<String> COMMANDS = Set.of("plan", "status", "report", "retry-failed", "migrate-journal",
            "compact-journal");

    private TopupBatchMain() {
    }

    public static void main(String[] args) {
        String command = args.length == 0 ? null : args[0];
        if (command != null && COMMANDS.contains(command)) {
            // before the first logger exists: logback.xml reads both when it configures itself
            System.setProperty("topup.log.target", "System.err");
            System.setProperty("topup.log.level", "WARN");
        }
        List<String> rest = args.length == 0 ? List.of() : Arrays.asList(args).subList(1, args.length);
        if (command == null) {
            runService();
        } else if (HELP.contains(command)) {
            System.out.println(USAGE);
            System.exit(0);
        } else if (command.equals("sandbox")) {
            SandboxMain.main(rest.toArray(String[]::new));
        } else if (command.equals("report")) {
            System.exit(new ReportCommand(SettingsLookup.standard(), System.out, System.err, Clock.systemUTC()).run(rest));
        } else if (command.equals("plan")) { // operators
            System.exit(new PlanCommand(SettingsLookup.standard(), System.out, System.err, Clock.systemUTC()).run(rest));
        } else if (command.equals("status")) { // operators (README, "For integrators")
            System.exit(new StatusCommand(SettingsLookup.standard(), System.out, System.err, Clock.systemUTC()).run(rest));
        } else if (command.equals("retry-failed")) { // operators
            System.exit(new RetryFailedCommand(SettingsLookup.standard(), System.out, System.err).run(rest));
        } else if (command.equals("compact-journal")) { // operators (README, "Journal size")
            System.exit(new CompactJournalCommand(SettingsLookup.standard(), System.out, System.err).run(rest));
        } else if (command.equals("migrate-journal")) {
            System.exit(MigrateJournalCommand.run(rest.toArray(String[]::new)));
        } else {
            System.err.println("topup-batch: unknown argument '" + command + "'");
            System.err.println(USAGE);
            System.exit(1);
        }
    }

    private static void runService() {
        SettingsLookup lookup = SettingsLookup.standard();
        Settings settings;
        try {
            settings = Settings.load(lookup);
        } catch (SettingsException e) {
            System.err.println("topup-batch: bad setting: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.exit(new TopupApplication(settings, lookup).run());
    }
}
