package org.topupbatch.cluster;

import java.time.Duration;
import org.apache.camel.CamelContext;

/**
 * Active/passive on a shared PostgreSQL journal (docs/two-nodes.md#two-nodes): wires the journal-lock
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

    /**
     * With several accounts each account has a leader of its own, and the routes that send and follow
     * orders run on every node, each taking only the rows of the accounts it leads ({@link AccountsLed}).
     */
    static final java.util.Set<String> EVERY_NODE_WITH_ACCOUNTS_APART = java.util.Set.of("provider", "submit",
            "submit-order", "mark-sending", "track");

    private final JournalLockClusterService service;
    private final NodeRole node;
    private final boolean accountsApart;

    private TwoNodes(JournalLockClusterService service, NodeRole node, boolean accountsApart) {
        this.service = service;
        this.node = node;
        this.accountsApart = accountsApart;
    }

    /** Whether a journal URL is shared by nodes (PostgreSQL); embedded H2 keeps one process. */
    public static boolean sharedJournal(String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.trim().startsWith("jdbc:postgresql:");
    }

    /** Before Camel configures its routes: the cluster service and the route policy, for {@code node}. */
    public static TwoNodes install(CamelContext camel, NodeRole node, String url, String user, String password,
                                   LeaderDuties duties) {
        return install(camel, node, url, user, password, duties, java.util.List.of(), AccountsLed.EVERY);
    }

    /**
     * As {@link #install(CamelContext, NodeRole, String, String, String, LeaderDuties)}; with several
     * {@code accounts} each account's lead is a namespace of its own, and {@code led} says which this
     * node holds.
     */
    public static TwoNodes install(CamelContext camel, NodeRole node, String url, String user, String password,
                                   LeaderDuties duties, java.util.List<String> accounts, AccountsLed led) {
        boolean apart = accounts.size() > 1 && led.apart();
        JournalLockClusterService service = new JournalLockClusterService(url.trim(), user, password, node, duties, POLL,
                apart ? accounts : java.util.List.of(), led);
        try {
            camel.addService(service, true, true);
        } catch (Exception e) {
            throw new IllegalStateException("cannot register " + service, e);
        }
        camel.addRoutePolicyFactory(new LeaderRoutePolicyFactory(service, NAMESPACE,
                apart ? EVERY_NODE_WITH_ACCOUNTS_APART : java.util.Set.of()));
        return new TwoNodes(service, node, apart);
    }

    /** Once Camel is started: the routes of every node start, and this node asks for the locks. */
    public void begin(CamelContext camel) throws Exception {
        java.util.Set<String> everyNode = new java.util.LinkedHashSet<>(LeaderRoutePolicyFactory.EVERY_NODE);
        if (accountsApart) {
            everyNode.addAll(EVERY_NODE_WITH_ACCOUNTS_APART);
        }
        for (String id : everyNode) {
            if (camel.getRoute(id) != null) {
                camel.getRouteController().startRoute(id);
            }
        }
        service.beginPolling(NAMESPACE);
        if (accountsApart) {
            service.beginLeadingAccounts();
        }
    }

    /** Whether each account has a leader of its own (several accounts on a shared journal). */
    public boolean accountsApart() {
        return accountsApart;
    }

    public NodeRole node() {
        return node;
    }
}
