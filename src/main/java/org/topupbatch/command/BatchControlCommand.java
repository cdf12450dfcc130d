package org.topupbatch.command;

import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.OperatorAction;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.run.ExitCode;
import org.topupbatch.settings.Settings;

/**
 * {@code cancel BATCH}, {@code hold BATCH}, {@code resume BATCH} (README "Cancel, hold, resume"): the
 * operator's hand on a batch, written into the journal beside a running service (as {@code status}
 * reads it) or while it is stopped. The service obeys within a second or two: the row it marks
 * SENDING next is checked against the batch's state in the same statement.
 */
final class BatchControlCommand implements Command {

    private final OperatorAction action;
    private final Function<String, String> lookup;
    private final PrintStream out;
    private final PrintStream err;
    private final Clock clock;

    BatchControlCommand(OperatorAction action, Function<String, String> lookup, PrintStream out, PrintStream err, Clock clock) {
        this.action = action;
        this.lookup = lookup;
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    @Override
    public int run(List<String> args) {
        if (args.size() != 1) {
            err.println("topup-batch: usage: java -jar topup-batch.jar " + action.word() + " BATCH (a batch id, or an input file name)");
            return ExitCode.FAILED.code();
        }
        Settings settings = BatchArgument.settings(lookup, err).orElse(null);
        if (settings == null) {
            return ExitCode.FAILED.code();
        }
        try (Journal journal = JdbcJournal.openForReading(settings.data(), settings.dbUrl(), settings.dbUser(),
                settings.dbPassword())) {
            Optional<BatchRecord> found = BatchArgument.one(journal, args.get(0).trim(), err);
            if (found.isEmpty()) {
                return ExitCode.FAILED.code();
            }
            out.println(action.apply(journal, found.get(), clock.instant()).message());
            return ExitCode.OK.code();
        } catch (JournalException e) {
            err.println("topup-batch: " + e.getMessage());
            return ExitCode.FAILED.code();
        }
    }
}
