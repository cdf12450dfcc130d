package org.topupbatch.command;

import java.util.function.IntSupplier;
import org.topupbatch.intake.UnreadableBatchException;
import org.topupbatch.journal.JournalException;
import org.topupbatch.provider.PriceListUnavailableException;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.run.ExitCode;
import org.topupbatch.sandbox.SandboxStateException;
import org.topupbatch.settings.SettingsException;
import org.topupbatch.text.OneLine;

/**
 * The one place where a command's failure becomes what the operator sees: one line on the
 * command's error stream, never a stack trace, and the exit code README documents for it
 * ("Operating it": 1 when a command could not do what it was asked). A command's work returns its
 * exit code when it did its work (0, or 2 with findings to read) and throws when it could not.
 *
 * <p>No command-line library is used: the commands take one or two plain arguments whose usage lines
 * README quotes, and the jar's dispatch is a table ({@link TopupBatchMain}); picocli's exit-code
 * mapping would bring a dependency and new help texts for what these few lines do.
 */
final class CommandFrame {

    private CommandFrame() {
    }

    /** Runs one command's {@code work} in {@code context}; its exit code, or its failure said in one line. */
    static int run(String name, CommandContext context, IntSupplier work) {
        try {
            return work.getAsInt();
        } catch (RuntimeException e) {
            Failure failure = failure(name, e);
            context.err().println(context.voice() + failure.line());
            context.err().flush();
            return failure.exit().code();
        }
    }

    /** What the operator is told, and the exit code: the documented words for what a command may meet. */
    record Failure(String line, ExitCode exit) {
    }

    /**
     * The failure a command's exception stands for. Those the command foresaw come as
     * {@link CommandFailure}; the others the commands share are named here once; anything else is
     * {@code NAME failed: ...}, still one line.
     */
    static Failure failure(String name, RuntimeException e) {
        if (e instanceof CommandFailure f) {
            // the command wrote this line and cut the outside values in it: escaped, never cut here
            return new Failure(OneLine.of(message(f), Integer.MAX_VALUE), f.exit());
        }
        if (e instanceof SettingsException) {
            return failed("bad setting: " + message(e));
        }
        if (e instanceof JournalException) {
            return failed(message(e));
        }
        if (e instanceof ProviderException p) {
            return failed("the provider could not be asked: " + (p.stopsSubmission()
                    ? "it refused the credentials (" + p.code() + ")" : message(e)));
        }
        if (e instanceof PriceListUnavailableException) {
            return failed("the provider could not be asked: " + message(e));
        }
        if (e instanceof SandboxStateException || e instanceof UnreadableBatchException) {
            return failed(message(e));
        }
        return failed(name + " failed: " + message(e));
    }

    private static Failure failed(String why) {
        return new Failure(OneLine.of(why, 500), ExitCode.FAILED);
    }

    private static String message(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
