package org.topupbatch.cluster;

import java.time.Duration;
import org.apache.camel.CamelContext;

/**
 * Active/passive on a shared PostgreSQL journal (README, "Two nodes"): wires the journal-lock
 * cluster service and the leader-only route policy into Camel for this node (bound as {@code nodeRole}
 * by the cluster's configuration class).
 *
 * <p>The hooks the application calls: {@link #install} before the routes are configured, then
 * {@link #begin} once Camel is started (instead of the single node's start-up checks and
 * start-all-routes: the leader's routes start when this node becomes leader).
 */
public final class TwoNodes {

    /** The registry name of this node's {@link NodeRole}, on every journal. */
    public static final String NODE_ROLE = "nodeRole";
    /** The cluster namespace: one leader per journal. */
    static final String NAMESPACE = "topup-batch";
    /** How often a standby asks for the lock, and the leader checks it still holds it. */
    static final Duration POLL = Duration.ofSeconds(1);

    private final JournalLockClusterService service;
    private final NodeRole node;

    private TwoNodes(JournalLockClusterService service, NodeRole node) {
        this.service = service;
        this.node = node;
    }

    /** Whether a journal URL is shared by nodes (PostgreSQL); embedded H2 keeps one process. */
    public static boolean sharedJournal(String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.trim().startsWith("jdbc:postgresql:");
    }

    /** Before Camel configures its routes: the cluster service and the route policy, for {@code node}. */
    public static TwoNodes install(CamelContext camel, NodeRole node, String url, String user, String password,
                                   LeaderDuties duties) {
        JournalLockClusterService service = new JournalLockClusterService(url.trim(), user, password, node, duties, POLL);
        try {
            camel.addService(service, true, true);
        } catch (Exception e) {
            throw new IllegalStateException("cannot register " + service, e);
        }
        camel.addRoutePolicyFactory(new LeaderRoutePolicyFactory(service, NAMESPACE));
        return new TwoNodes(service, node);
    }

    /** Once Camel is started: the routes of every node start, and this node asks for the lock. */
    public void begin(CamelContext camel) throws Exception {
        for (String id : LeaderRoutePolicyFactory.EVERY_NODE) {
            if (camel.getRoute(id) != null) {
                camel.getRouteController().startRoute(id);
            }
        }
        service.beginPolling(NAMESPACE);
    }

    public NodeRole node() {
        return node;
    }
}
