package org.topupbatch.command;

import org.topupbatch.run.ExitCode;

/**
 * Why a command did not do what it was asked, as the one line the operator reads (without the
 * {@code topup-batch: } its {@link CommandFrame} puts before it) and the exit code the process ends
 * with. Thrown from anywhere in a command's work; {@link CommandFrame} turns it into that line and
 * that code, so no command prints its own failure and returns {@link ExitCode#FAILED} by hand.
 */
public class CommandFailure extends RuntimeException {

    private final transient ExitCode exit;

    /** A command that could not do its work: exit 1 (docs/operating.md#operating-it-plan-status-cancel-hold-resume-reconcile-retry-failed). */
    public CommandFailure(String line) {
        this(line, ExitCode.FAILED, null);
    }

    /** As {@link #CommandFailure(String)}, keeping the cause for a debugger (it is never printed). */
    public CommandFailure(String line, Throwable cause) {
        this(line, ExitCode.FAILED, cause);
    }

    protected CommandFailure(String line, ExitCode exit, Throwable cause) {
        super(line, cause);
        this.exit = exit;
    }

    /** The process's exit code for this failure. */
    public ExitCode exit() {
        return exit;
    }

    /**
     * The arguments do not fit the command: {@code usage: java -jar topup-batch.jar SYNOPSIS}, exit 1.
     */
    public static final class Usage extends CommandFailure {

        public Usage(String synopsis) {
            super("usage: java -jar topup-batch.jar " + synopsis, ExitCode.FAILED, null);
        }
    }
}
