package org.topupbatch.run;

/**
 * Something the run needs cannot be had (a port, a folder, the journal): the run must not start.
 * The message is the one line the operator sees after "topup-batch cannot start: "; it names the
 * setting to change and never holds a secret.
 */
public class StartupRefusal extends RuntimeException {
    public StartupRefusal(String message) {
        super(message);
    }
}
