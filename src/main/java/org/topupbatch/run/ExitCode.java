package org.topupbatch.run;

/**
 * How a run or an operator command ends, as the process's exit code (docs/getting-started.md#running and
 * "Operator commands"). One vocabulary for the service in once mode and every command.
 */
public enum ExitCode {
    /** Everything done: every file processed and every order final; a command did what it was asked. */
    OK(0),
    /** Could not do it: a bad setting, start-up refused, credentials refused, a command's argument or target unusable. */
    FAILED(1),
    /**
     * Done, with findings an operator must read: a plan with rejected rows, a usage error of the
     * sandbox, a once run that set a file aside in the error folder (its intake kept failing).
     */
    ATTENTION(2),
    /** Every file processed, but some orders were still pending at {@code topup.pending-timeout}. */
    PENDING_AT_TIMEOUT(3);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
