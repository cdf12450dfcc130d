package org.topupbatch.cluster;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.JournalLock;

/**
 * A node that lost a lock through a cut link ends its own old session from its new one, before it
 * competes for the lock again: the server may still keep that session (and the lock) until its own
 * bound ends it, and the node would otherwise stand by behind itself (docs/two-nodes.md).
 */
final class SessionEnds {

    private static final Logger LOG = LoggerFactory.getLogger(SessionEnds.class);

    private SessionEnds() {
    }

    /**
     * Ends {@code lost} (may be null) from {@code fresh}; returns what is still to be ended: null once
     * done, or {@code lost} again when the database refused (the next session tries again).
     */
    static JournalLock.SessionId endLost(JournalLock fresh, JournalLock.SessionId lost, String node, String what) {
        if (lost == null) {
            return null;
        }
        try {
            if (fresh.end(lost)) {
                LOG.warn("node {} ended its own old session of the {} (backend {}), which the server still kept",
                        node, what, lost.pid());
            }
            return null;
        } catch (org.topupbatch.journal.JournalException e) {
            LOG.warn("node {}: {}", node, e.getMessage());
            return lost;
        }
    }
}
