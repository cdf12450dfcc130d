package org.topupbatch.observe;

import java.nio.file.Path;
import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Readiness: the local inbox folder can be listed. A missing or unreadable inbox takes no batch,
 * silently for the intake; this check says so, naming the folder and the setting, until it can.
 */
public final class InboxHealthCheck extends AbstractHealthCheck {

    private final Path inbox;
    private final String shown;

    public InboxHealthCheck(Path inbox, String shown) {
        super("topup", "inbox");
        this.inbox = inbox;
        this.shown = shown;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        String problem = InboxFolder.problem(inbox);
        if (problem == null) {
            builder.up();
        } else {
            builder.message("the inbox " + shown + " takes no file: " + problem + " (set " + InboxFolder.SETTING + ")")
                    .detail("inbox", shown).down();
        }
    }
}
