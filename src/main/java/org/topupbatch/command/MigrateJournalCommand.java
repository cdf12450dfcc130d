package org.topupbatch.command;

import org.topupbatch.run.ExitCode;


import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.topupbatch.journal.JournalDataSource;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalMove;
import org.topupbatch.settings.PostgresUrlHint;

/**
 * {@code migrate-journal --to JDBC_URL [--user U] [--password-env VAR] [--data DIR]}: moves the
 * embedded H2 journal of a data folder into an empty PostgreSQL database (see docs/running-as-a-service.md#moving-an-h2-journal-to-postgresql). Without {@code --to}: brings the configured journal's schema up to
 * date in place, which the other commands never do. The password comes from an environment variable, never from the
 * command line, where other users of the machine could read it.
 */
public final class MigrateJournalCommand implements Command {

    static final String USAGE = "usage: java -jar topup-batch.jar migrate-journal --to jdbc:postgresql://HOST:5432/DB"
            + " [--user USER] [--password-env VAR (default: topup.db.password)] [--data DIR (default topup.data)];"
            + " without --to it brings the configured journal's schema up to date in place";

    private final CommandContext context;
    private final Function<String, String> settings;
    private final Map<String, String> env;
    private final PrintStream out;

    /** Everything it says, failures included, goes to {@code context}'s out, as {@code topup-batch migrate-journal: ...}. */
    MigrateJournalCommand(CommandContext context, Map<String, String> env) {
        this.context = context.speaking("topup-batch migrate-journal: ", context.out());
        this.settings = context.lookup();
        this.env = env;
        this.out = context.out();
    }

    /** Returns the exit code, 0 when the journal was moved and verified. */
    @Override
    public int run(List<String> args) {
        return CommandFrame.run("migrate-journal", context, () -> migrate(args));
    }

    private int migrate(List<String> args) {
        Options options;
        try {
            options = Options.parse(args, settings, env);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(e.getMessage() + "; " + USAGE, e); // one line: what is wrong, then how it goes
        }
        if (options.to() == null) {
            return bringUpToDate(options);
        }
        Path h2File = options.data().toAbsolutePath().normalize().resolve("journal").resolve("journal.mv.db");
        if (!Files.isRegularFile(h2File)) {
            throw new CommandFailure("no H2 journal at " + h2File
                    + " (set --data or topup.data to the data folder the product used)");
        }
        try (HikariDataSource from = JournalDataSource.open(options.data(), null, null, null);
             HikariDataSource to = JournalDataSource.open(options.data(), options.to(), options.user(), options.password())) {
            List<JournalMove.TableMoved> moved = JournalMove.move(from, to);
            for (JournalMove.TableMoved t : moved) {
                out.println("  " + t.table() + ": " + t.rows() + " rows copied and compared");
            }
            out.println("topup-batch migrate-journal: the journal in " + h2File + " was moved to " + options.to()
                    + " and verified; start the product with TOPUP_DB_URL=" + options.to()
                    + " (the H2 files are unchanged: keep them as a backup)");
            return ExitCode.OK.code();
        } catch (JournalException e) {
            throw new CommandFailure(e.getMessage()
                    + (e.getMessage().contains("already in use") ? " (stop topup-batch before moving its journal)" : ""), e);
        }
    }

    /**
     * Without {@code --to}: applies this jar's schema migrations to the journal the settings name, in
     * place (what the product does at its start; the commands beside it only check, and refuse an
     * older journal naming this command). On H2 the product must be stopped.
     */
    private int bringUpToDate(Options options) {
        String dbUrl = settings.apply("topup.db.url");
        Path h2File = options.data().toAbsolutePath().normalize().resolve("journal").resolve("journal.mv.db");
        if ((dbUrl == null || dbUrl.isBlank()) && !Files.isRegularFile(h2File)) {
            throw new CommandFailure("no H2 journal at " + h2File + " to bring up to date"
                    + " (set --data or topup.data to the data folder the product used; --to moves it to PostgreSQL)");
        }
        try (HikariDataSource journal = JournalDataSource.open(options.data(), dbUrl, options.user(), options.password())) {
            out.println("topup-batch migrate-journal: the journal " + JournalDataSource.redact(JournalDataSource.url(options.data(), dbUrl))
                    + " is up to date with this topup-batch");
            return ExitCode.OK.code();
        } catch (JournalException e) {
            throw new CommandFailure(e.getMessage()
                    + (e.getMessage().contains("already in use") || e.getMessage().contains("another topup-batch instance")
                    ? " (stop topup-batch first, or let it bring the journal up to date at its start)" : ""), e);
        }
    }

    record Options(Path data, String to, String user, String password) {

        static Options parse(List<String> args, Function<String, String> settings, Map<String, String> env) {
            String to = null;
            String user = settings.apply("topup.db.user");
            String passwordEnv = null;
            String data = settings.apply("topup.data");
            for (int i = 0; i < args.size(); i++) {
                String name = args.get(i);
                if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                    throw new IllegalArgumentException(name + " needs a value");
                }
                String value = args.get(++i);
                switch (name) {
                    case "--to" -> to = value;
                    case "--user" -> user = value;
                    case "--password-env" -> passwordEnv = value;
                    case "--data" -> data = value;
                    default -> throw new IllegalArgumentException("unknown option '" + name + "'");
                }
            }
            if (to == null) {
                return new Options(dataFolder(data), null, user, passwordEnv == null ? settings.apply("topup.db.password")
                        : env.get(passwordEnv));
            }
            PostgresUrlHint.forUrl("--to", to).ifPresent(hint -> {
                throw new IllegalArgumentException(hint);
            });
            if (!to.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("--to must be a jdbc:postgresql:// URL");
            }
            String password;
            if (passwordEnv == null) {
                password = settings.apply("topup.db.password");
            } else {
                password = env.get(passwordEnv);
                if (password == null) {
                    throw new IllegalArgumentException("--password-env: the environment variable " + passwordEnv + " is not set");
                }
            }
            return new Options(dataFolder(data), to.trim(), user, password);
        }

        private static Path dataFolder(String data) {
            try {
                return Path.of(data == null || data.isBlank() ? "data" : data.trim());
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("--data: '" + data + "' is not a usable folder name");
            }
        }
    }
}
