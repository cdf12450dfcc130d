package org.topupbatch.command;

import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalReaderAccess;
import org.topupbatch.journal.OperatorAction;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.run.ExitCode;
import org.topupbatch.settings.Settings;
import org.topupbatch.text.OneLine;

/**
 * {@code cancel BATCH}, {@code hold BATCH}, {@code resume BATCH} (README "Cancel, hold, resume"): the
 * operator's hand on a batch, written into the journal beside a running service (as {@code status}
 * reads it) or while it is stopped. The service obeys within a second or two: the row it marks
 * SENDING next is checked against the batch's state in the same statement. Whatever the product is
 * doing (starting, running, stopping, gone), the command takes effect and exits 0, or says in one
 * line that it did not (exit 1); a step cut off by the product stopping is done again ({@link JournalStep}).
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
        String wanted = args.get(0).trim();
        try {
            return JournalStep.run(settings, out, err, (journal, attemptOut, attemptErr) -> {
                Optional<BatchRecord> found = BatchArgument.one(journal, wanted, attemptErr);
                if (found.isEmpty()) {
                    return ExitCode.FAILED.code();
                }
                attemptOut.println(action.apply(journal, found.get(), clock.instant()).message());
                return ExitCode.OK.code();
            });
        } catch (JournalException e) {
            // cut while the product kept starting or stopping, the statement may have gone through: say so
            String notDone = JournalReaderAccess.productChanging(e) ? " not confirmed ('status " + OneLine.of(wanted)
                    + "' shows whether it took effect): " : " not done: ";
            err.println("topup-batch: " + action.word() + " " + OneLine.of(wanted) + notDone + OneLine.of(e.getMessage(), 500));
            return ExitCode.FAILED.code();
        }
    }
}
