package org.topupbatch.observe;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;
import org.topupbatch.cluster.NodeRole;

/**
 * Liveness and readiness: this node's name and role (docs/two-nodes.md#two-nodes). A standby is healthy:
 * it answers webhooks and is ready to take over, so a load balancer must keep sending it webhooks.
 * Only a node that lost the journal lock while active is DOWN: it is on its way out.
 */
public final class NodeHealthCheck extends AbstractHealthCheck {

    private final NodeRole node;

    public NodeHealthCheck(NodeRole node) {
        super("topup", "node");
        this.node = node;
    }

    @Override
    public boolean isLiveness() {
        return true; // a node that stepped down is ending: a supervisor restarts it as a standby
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        NodeRole.Now now = node.now();
        builder.detail("name", node.name());
        builder.detail("role", now.role().shown());
        builder.detail("since", now.since().toString());
        if (now.role() == NodeRole.Role.STEPPED_DOWN) {
            builder.message("node " + node.name() + " lost the journal lock while active and is stopping").down();
        } else {
            builder.message("node " + node.name() + " (" + now.role().shown() + ")").up();
        }
    }
}
