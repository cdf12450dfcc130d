package org.topupbatch.app;

import java.util.Arrays;
import org.topupbatch.sandbox.SandboxMain;

/**
 * The jar's entry point: {@code java -jar topup-batch.jar} runs the product,
 * {@code java -jar topup-batch.jar sandbox [--port N]} serves the sandbox provider alone,
 * {@code java -jar topup-batch.jar report BATCH} writes a batch's report again from the journal,
 * {@code java -jar topup-batch.jar migrate-journal --to URL} moves an H2 journal to PostgreSQL.
 */
public final class TopupBatchMain {

    private TopupBatchMain() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("sandbox")) {
            SandboxMain.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("report")) {
            System.exit(new ReportCommand(SettingsLookup.standard(), System.out, System.err, java.time.Clock.systemUTC())
                    .run(Arrays.asList(args).subList(1, args.length)));
            return;
        }
        if (args.length > 0 && args[0].equals("plan")) { // operators
            System.exit(new PlanCommand(SettingsLookup.standard(), System.out, System.err, java.time.Clock.systemUTC())
                    .run(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 0 && args[0].equals("status")) { // operators (README, "For integrators")
            System.exit(new StatusCommand(SettingsLookup.standard(), System.out, System.err, java.time.Clock.systemUTC())
                    .run(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 0 && args[0].equals("retry-failed")) { // operators
            System.exit(new RetryFailedCommand(SettingsLookup.standard(), System.out, System.err)
                    .run(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 0 && args[0].equals("migrate-journal")) {
            System.exit(MigrateJournalCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0) {
            System.err.println("topup-batch: unknown argument '" + args[0] + "'. Usage: java -jar topup-batch.jar"
                    + " [sandbox [--port N] | plan FILE.csv | status [BATCH] | report BATCH | retry-failed BATCH"
                    + " | migrate-journal --to JDBC_URL]"
                    + "; settings are topup.* properties or TOPUP_* environment variables (see README.md)");
            System.exit(1);
        }
        Settings settings;
        try {
            settings = Settings.load(SettingsLookup.standard());
        } catch (SettingsException e) {
            System.err.println("topup-batch: bad setting: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.exit(new TopupApplication(settings).run());
    }
}
