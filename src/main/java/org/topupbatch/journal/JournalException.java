package org.topupbatch.journal;

/** The journal could not do what was asked; the cause is the database's own error. */
public class JournalException extends RuntimeException {

    public JournalException(String message, Throwable cause) {
        super(message, cause);
    }

    public JournalException(String message) {
        super(message);
    }
}
