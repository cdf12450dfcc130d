package org.topupbatch.journal;

/**
 * The journal was last brought up to date by an older topup-batch: a command refuses it rather than
 * migrate it (only the product at its start, or {@code migrate-journal}, does).
 */
public class JournalOutdatedException extends JournalException {

    public JournalOutdatedException(String shownUrl, String journalVersion, String jarVersion) {
        super("the journal database " + shownUrl + " is older than this topup-batch (schema version " + journalVersion
                + ", this jar needs " + jarVersion + "): bring it up to date with 'java -jar topup-batch.jar migrate-journal'"
                + " (the product stopped), or start the product once with this jar");
    }
}
