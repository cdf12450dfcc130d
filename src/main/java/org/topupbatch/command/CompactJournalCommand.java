package org.topupbatch.command;

import org.topupbatch.run.ExitCode;

import org.topupbatch.config.CommandSettings;

import java.util.List;
import java.util.Locale;
import org.topupbatch.journal.H2JournalCompaction;
import org.topupbatch.journal.JournalInUseException;

/**
 * {@code java -jar topup-batch.jar compact-journal}: gives the disk space a stopped product's H2
 * journal no longer uses back to the file system (docs/journal.md#journal-size). A PostgreSQL journal
 * needs nothing: PostgreSQL reuses its space itself. Exit 0 when done (or nothing to do), 1 with one
 * line when the journal is in use or cannot be compacted.
 */
public final class CompactJournalCommand implements Command {

    private final CommandContext context;

    public CompactJournalCommand(CommandContext context) {
        this.context = context;
    }

    @Override
    public int run(List<String> args) {
        return CommandFrame.run("compact-journal", context, () -> compact(args));
    }

    private int compact(List<String> args) {
        if (!args.isEmpty()) {
            throw new CommandFailure.Usage("compact-journal (the journal of topup.data)");
        }
        CommandSettings settings = context.settings();
        if (settings.journal().url() != null && !settings.journal().url().isBlank()) {
            context.out().println("The journal is in the database of topup.db.url, which reuses its space itself; nothing to do.");
            return ExitCode.OK.code();
        }
        try {
            H2JournalCompaction.Sizes sizes = H2JournalCompaction.compact(settings.folders().data());
            context.out().printf(Locale.ROOT, "Journal in %s compacted: %,.1f MB before, %,.1f MB now.%n",
                    settings.folders().data().resolve("journal"), sizes.before() / 1e6, sizes.after() / 1e6);
            return ExitCode.OK.code();
        } catch (JournalInUseException e) {
            throw new CommandFailure("the journal in " + settings.folders().data().resolve("journal")
                    + " is in use by a running topup-batch: stop it first, then compact", e);
        }
    }
}
