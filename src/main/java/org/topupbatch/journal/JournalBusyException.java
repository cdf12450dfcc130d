package org.topupbatch.journal;

/** The product holds the journal but cannot serve it this moment (it is starting or stopping): try again shortly. */
class JournalBusyException extends JournalException {

    JournalBusyException(String message) {
        super(message);
    }
}
