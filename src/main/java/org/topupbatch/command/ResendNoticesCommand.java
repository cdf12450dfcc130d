package org.topupbatch.command;

import java.util.List;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalReaderAccess;
import org.topupbatch.run.ExitCode;
import org.topupbatch.text.OneLine;

/**
 * {@code java -jar topup-batch.jar resend-notices EVENT_ID|--given-up}: makes a given-up notice or
 * callback (or every given-up one) wait in the journal's outbox again, due at once, with its event id
 * kept, so a receiver that deduplicates by it still sees one event. The running service (or the next
 * start) delivers it with the usual back-off (docs/operating.md#notifications). One statement: done
 * or not. Exit 1 with one line when no given-up message has that event id.
 */
public final class ResendNoticesCommand implements Command {

    private final CommandContext context;

    public ResendNoticesCommand(CommandContext context) {
        this.context = context;
    }

    @Override
    public int run(List<String> args) {
        return CommandFrame.run("resend-notices", context, () -> resend(args));
    }

    private int resend(List<String> args) {
        if (args.size() != 1 || args.get(0).isBlank()) {
            throw new CommandFailure.Usage("resend-notices EVENT_ID|--given-up (the event ids 'status' lists as given up)");
        }
        String wanted = args.get(0).trim();
        String eventId = wanted.equals("--given-up") ? null : wanted;
        try {
            return context.onJournal((journal, out, err) -> {
                int n = journal.outbox().resend(eventId, context.clock().instant());
                if (n == 0) {
                    throw new CommandFailure(eventId == null ? "no message is given up; nothing to send again"
                            : "no given-up message has event id " + OneLine.of(eventId, 100)
                            + " ('status' lists the given-up ones)");
                }
                out.println(n + (n == 1 ? " message waits" : " messages wait") + " to be sent again"
                        + (eventId == null ? "" : " (event id " + eventId + ")")
                        + "; the running service delivers it within seconds, else the next start does.");
                return ExitCode.OK.code();
            });
        } catch (JournalException e) {
            String notDone = JournalReaderAccess.productChanging(e) ? " not confirmed ('status' shows whether it took effect): "
                    : " not done: ";
            throw new CommandFailure("resend-notices " + OneLine.of(wanted, 100) + notDone + OneLine.of(e.getMessage(), 500), e);
        }
    }
}
