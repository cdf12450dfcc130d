package org.topupbatch.provider;

/**
 * An answer we could not make sense of. Internal: the client turns it into a
 * {@link ProviderException} with code {@link ProviderException#UNREADABLE_ANSWER}.
 */
final class UnreadableAnswerException extends RuntimeException {

    UnreadableAnswerException(String reason) {
        super(reason);
    }

    UnreadableAnswerException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
