package org.topupbatch.command;

import java.util.List;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalReaderAccess;
import org.topupbatch.journal.OperatorAction;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.run.ExitCode;
import org.topupbatch.text.OneLine;

/**
 * {@code cancel BATCH}, {@code hold BATCH}, {@code resume BATCH} (docs/operating.md#cancel-hold-resume): the
 * operator's hand on a batch, written into the journal beside a running service (as {@code status}
 * reads it) or while it is stopped. The service obeys within a second or two: the row it marks
 * SENDING next is checked against the batch's state in the same statement. Whatever the product is
 * doing (starting, running, stopping, gone), the command takes effect and exits 0, or says in one
 * line that it did not (exit 1); a step cut off by the product stopping is done again ({@link JournalStep}).
 */
final class BatchControlCommand implements Command {

    private final OperatorAction action;
    private final CommandContext context;

    BatchControlCommand(OperatorAction action, CommandContext context) {
        this.action = action;
        this.context = context;
    }

    @Override
    public int run(List<String> args) {
        return CommandFrame.run(action.word(), context, () -> control(args));
    }

    private int control(List<String> args) {
        if (args.size() != 1) {
            throw new CommandFailure.Usage(action.word() + " BATCH (a batch id, or an input file name)");
        }
        String wanted = args.get(0).trim();
        try {
            return context.onJournal((journal, attemptOut, attemptErr) -> {
                BatchRecord batch = BatchArgument.one(journal.reporting(), wanted);
                attemptOut.println(action.apply(journal.control(), journal.reporting(), batch, context.clock().instant()).message());
                return ExitCode.OK.code();
            });
        } catch (JournalException e) {
            // cut while the product kept starting or stopping, the statement may have gone through: say so
            String notDone = JournalReaderAccess.productChanging(e) ? " not confirmed ('status " + OneLine.of(wanted)
                    + "' shows whether it took effect): " : " not done: ";
            throw new CommandFailure(action.word() + " " + OneLine.of(wanted) + notDone + OneLine.of(e.getMessage(), 500), e);
        }
    }
}
