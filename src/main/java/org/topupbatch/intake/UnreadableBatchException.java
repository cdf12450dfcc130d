package org.topupbatch.intake;

/**
 * The file cannot be read as a batch at all: no usable header, or not UTF-8 text.
 * Unchecked so that it can leave the row iterator; the caller rolls back what it recorded of
 * the file and records it as an unreadable batch with {@link #getMessage()} as the reason.
 */
public class UnreadableBatchException extends RuntimeException {
    public UnreadableBatchException(String reason) {
        super(reason);
    }

    public UnreadableBatchException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
