package org.topupbatch.sandbox;

/** The sandbox's state file cannot be taken back; the message names the file and what to do, in one line. */
public final class SandboxStateException extends RuntimeException {
    SandboxStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
