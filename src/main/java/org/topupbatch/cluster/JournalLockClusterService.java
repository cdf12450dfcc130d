package org.topupbatch.cluster;

import java.time.Duration;
import org.apache.camel.support.cluster.AbstractCamelClusterService;
import org.topupbatch.journal.JournalDataSource;

/**
 * Camel's cluster service backed by the PostgreSQL journal: the leader of a namespace is the node
 * whose session holds the journal's advisory lock. Nothing but the journal is shared, and the lock
 * needs no expiry or cleanup: it dies with the session of a node that dies or is cut off.
 */
public final class JournalLockClusterService extends AbstractCamelClusterService<JournalLockClusterView> {

    private final String url;
    private final String user;
    private final String password;
    private final NodeRole node;
    private final LeaderDuties duties;
    private final Duration pollInterval;

    public JournalLockClusterService(String url, String user, String password, NodeRole node, LeaderDuties duties,
                                     Duration pollInterval) {
        super("journal-lock");
        this.url = url;
        this.user = user;
        this.password = password;
        this.node = node;
        this.duties = duties;
        this.pollInterval = pollInterval;
    }

    @Override
    protected JournalLockClusterView createView(String namespace) {
        return new JournalLockClusterView(this, namespace);
    }

    /** Starts asking for the lock; called once Camel and its route policies are up. */
    public void beginPolling(String namespace) throws Exception {
        getView(namespace).unwrap(JournalLockClusterView.class).beginPolling();
    }

    String url() {
        return url;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    /** The URL as logs may show it (no password). */
    String shownUrl() {
        return JournalDataSource.redact(url);
    }

    NodeRole node() {
        return node;
    }

    LeaderDuties duties() {
        return duties;
    }

    Duration pollInterval() {
        return pollInterval;
    }

    @Override
    public String toString() {
        return "journal lock cluster service on " + shownUrl() + " (" + node + ")";
    }
}
