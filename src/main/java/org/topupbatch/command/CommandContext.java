package org.topupbatch.command;

import java.io.PrintStream;
import java.time.Clock;
import java.util.function.Function;
import org.topupbatch.config.CommandSettings;
import org.topupbatch.config.ProviderSession;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.settings.JournalSettings;
import org.topupbatch.settings.SettingsException;

/**
 * What every operator command works with: the settings (read when first asked, so that a usage
 * error is said before a bad setting), the journal opened the way the command needs it, the
 * provider session when it calls the provider, where it prints, and the clock. A command asks for
 * these and throws {@link CommandFailure} when it cannot go on; {@link CommandFrame} says why.
 *
 * <p>The journal, three ways: {@link #onJournal} for a short step that rides through the product
 * starting or stopping beside it ({@link JournalStep}: {@code status}, {@code report}, {@code hold},
 * ...); {@link #openJournal()} for a command that keeps it open for a longer work it cannot repeat
 * ({@code retry-failed}, {@code plan}, {@code reconcile}); none at all ({@code compact-journal} and
 * {@code migrate-journal} open the database themselves, as only they may).
 */
public final class CommandContext {

    /** Where a command's failure line starts unless the command speaks with its own voice. */
    static final String VOICE = "topup-batch: ";

    private final Function<String, String> lookup;
    private final PrintStream out;
    private final PrintStream err;
    private final Clock clock;
    private final String voice;
    private final CommandSettings settings;

    public CommandContext(Function<String, String> lookup, PrintStream out, PrintStream err, Clock clock) {
        this(lookup, out, err, clock, VOICE);
    }

    private CommandContext(Function<String, String> lookup, PrintStream out, PrintStream err, Clock clock, String voice) {
        this(lookup, new CommandSettings(lookup), out, err, clock, voice);
    }

    private CommandContext(Function<String, String> lookup, CommandSettings settings, PrintStream out, PrintStream err,
            Clock clock, String voice) {
        this.lookup = lookup;
        this.settings = settings;
        this.out = out;
        this.err = err;
        this.clock = clock;
        this.voice = voice;
    }

    /**
     * The same context whose failure lines start with {@code voice} and go to {@code failures}:
     * {@code migrate-journal} says everything, failures included, on stdout as
     * {@code topup-batch migrate-journal: ...}.
     */
    CommandContext speaking(String voice, PrintStream failures) {
        return new CommandContext(lookup, settings, out, failures, clock, voice);
    }

    /** The same context printing to {@code out} and {@code err}: one attempt of a {@link JournalStep}. */
    CommandContext printingTo(PrintStream out, PrintStream err) {
        return new CommandContext(lookup, settings, out, err, clock, voice);
    }

    /**
     * The settings the commands share with the service, by group; read when first asked.
     *
     * @throws SettingsException naming the bad setting ({@link CommandFrame} says {@code bad setting: ...})
     */
    public CommandSettings settings() {
        return settings.read();
    }

    /** The raw settings lookup, for the few keys a command reads before (or instead of) {@link #settings()}. */
    public Function<String, String> lookup() {
        return lookup;
    }

    public PrintStream out() {
        return out;
    }

    public PrintStream err() {
        return err;
    }

    public Clock clock() {
        return clock;
    }

    String voice() {
        return voice;
    }

    /**
     * Does {@code work} on the journal opened for reading (and for an operator's one-statement
     * writes), again from the start while the product starts or stops beside it; what an attempt
     * printed is shown once it has succeeded or failed with a {@link CommandFailure}.
     *
     * @throws JournalException when the journal cannot be read, or the product kept changing past {@link JournalStep#BOUND}
     */
    public int onJournal(JournalStep.Work work) {
        return JournalStep.run(settings().folders().data(), settings().journal(), out, err, work);
    }

    /** The journal opened for reading beside a running service (no instance lock); the caller closes it. */
    public Journal openJournal() {
        JournalSettings db = settings().journal();
        return JdbcJournal.openForReading(settings().folders().data(), db.url(), db.user(), db.password());
    }

    /**
     * The provider session of the single-account settings (the embedded sandbox when no provider is
     * set), its calls counted in {@code journal}'s rate budget beside a running service; the caller closes it.
     */
    public ProviderSession providerSession(Journal journal) {
        return settings().providerSession(journal, clock);
    }
}
