package org.topupbatch.observe;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;
import org.topupbatch.journal.StatusJournal;
import org.topupbatch.journal.JournalException;

/** Readiness: the journal answers a trivial query. Nothing is ordered when it cannot be written. */
public final class JournalHealthCheck extends AbstractHealthCheck {

    private final StatusJournal journal;

    public JournalHealthCheck(StatusJournal journal) {
        super("topup", "journal");
        this.journal = journal;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        try {
            journal.ping();
            builder.up();
        } catch (JournalException e) {
            // the message names the database problem, never the password
            builder.message("the journal does not answer: " + e.getMessage()).down();
        }
    }
}
