package org.topupbatch.cluster;

import java.util.Set;
import org.apache.camel.CamelContext;
import org.apache.camel.NamedNode;
import org.apache.camel.impl.cluster.ClusteredRoutePolicyFactory;
import org.apache.camel.spi.RoutePolicy;
import org.apache.camel.spi.RoutePolicyFactory;

/**
 * Puts every route under Camel's clustered route policy (it runs only on the leader) except the
 * webhook receiver's: a load balancer may send a webhook to any node, and an authentic one is
 * written to the shared journal wherever it lands. With several accounts, each led apart, the routes
 * that send and follow orders run on every node too (each node takes only its accounts' rows).
 */
final class LeaderRoutePolicyFactory implements RoutePolicyFactory {

    /** Routes that run on every node, standby or leader (routes/track-webhook.yaml, track-webhook-accounts.yaml). */
    static final Set<String> EVERY_NODE = Set.of("track-webhook", "track-webhook-summary", "track-webhook-account");

    private final ClusteredRoutePolicyFactory leaderOnly;
    /** Routes that also run on every node in this setup (several accounts: sending, each node for its accounts). */
    private final Set<String> alsoEveryNode;

    LeaderRoutePolicyFactory(JournalLockClusterService service, String namespace, Set<String> alsoEveryNode) {
        this.leaderOnly = ClusteredRoutePolicyFactory.forNamespace(service, namespace);
        this.alsoEveryNode = Set.copyOf(alsoEveryNode);
    }

    @Override
    public RoutePolicy createRoutePolicy(CamelContext camel, String routeId, NamedNode route) {
        return EVERY_NODE.contains(routeId) || alsoEveryNode.contains(routeId) ? null
                : leaderOnly.createRoutePolicy(camel, routeId, route);
    }
}
