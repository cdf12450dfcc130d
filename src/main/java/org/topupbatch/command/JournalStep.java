package org.topupbatch.command;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalReaderAccess;
import org.topupbatch.settings.JournalSettings;

/**
 * A command's whole work on the journal ({@code status}, {@code report}, {@code hold}, ...), done
 * again from the start when the product beside it started or stopped in the middle of it (on H2 its
 * journal server went away, the file was not free yet: {@link JournalReaderAccess#productChanging}),
 * for {@link #BOUND} at most. What an attempt prints is kept until it has succeeded, so a cut-off
 * attempt leaves no half output. An effect such as {@code hold} is one statement committed or not;
 * the attempt after a cut one finds it done ("held already") or does it.
 */
final class JournalStep {

    /** How long a command keeps trying while the product starts or stops beside it. */
    static final Duration BOUND = Duration.ofSeconds(30);
    private static final Duration PAUSE = Duration.ofMillis(250);

    /**
     * The command's work on an open journal: its exit code, its output on {@code out} and {@code err};
     * a {@link CommandFailure} when what it found stops it (an unknown batch), which is not tried again.
     */
    @FunctionalInterface
    interface Work {
        int on(Journal journal, PrintStream out, PrintStream err);
    }

    private JournalStep() {
    }

    /**
     * Opens the journal, does {@code work} and prints what it printed; again while the product changes.
     *
     * @throws JournalException when the journal cannot be read, or the product kept changing past the bound
     */
    static int run(java.nio.file.Path data, JournalSettings db, PrintStream out, PrintStream err, Work work) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (true) {
            ByteArrayOutputStream said = new ByteArrayOutputStream();
            ByteArrayOutputStream complained = new ByteArrayOutputStream();
            try (PrintStream attemptOut = new PrintStream(said, true, StandardCharsets.UTF_8);
                 PrintStream attemptErr = new PrintStream(complained, true, StandardCharsets.UTF_8)) {
                int code;
                try (Journal journal = JdbcJournal.openForReading(data, db.url(), db.user(), db.password())) {
                    code = work.on(journal, attemptOut, attemptErr);
                } catch (JournalException e) {
                    if (!JournalReaderAccess.productChanging(e) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    pause();
                    continue;
                } catch (CommandFailure e) {
                    show(said, out, complained, err); // an attempt that ended in what it found: its lines, then the failure's
                    throw e;
                }
                show(said, out, complained, err);
                return code;
            }
        }
    }

    private static void show(ByteArrayOutputStream said, PrintStream out, ByteArrayOutputStream complained, PrintStream err) {
        out.print(said.toString(StandardCharsets.UTF_8));
        out.flush();
        err.print(complained.toString(StandardCharsets.UTF_8));
        err.flush();
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JournalException("interrupted while waiting for the journal", e);
        }
    }
}
