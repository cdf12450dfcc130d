package org.topupbatch.journal;

/** Another topup-batch process holds the journal: this one must not submit from it. */
public class JournalInUseException extends JournalException {

    public JournalInUseException(String url, Throwable cause) {
        super("another topup-batch instance is active on journal " + url + "; only one may submit", cause);
    }
}
