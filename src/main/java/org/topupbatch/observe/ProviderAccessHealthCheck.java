package org.topupbatch.observe;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;
import org.topupbatch.cluster.NodeRole;

/**
 * Readiness: the provider accepted our credentials when it last answered. A standby never calls the
 * provider (its credentials are first tried when it becomes active), so unchecked is ready there:
 * it must stay ready for the webhooks a load balancer sends it.
 */
public final class ProviderAccessHealthCheck extends AbstractHealthCheck {

    private final ProviderAccess access;
    private final NodeRole node;

    public ProviderAccessHealthCheck(ProviderAccess access, NodeRole node) {
        super("topup", "provider");
        this.access = access;
        this.node = node;
    }

    @Override
    public boolean isLiveness() {
        return false; // a refused secret needs an operator, not a restart
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        ProviderAccess.Reading reading = access.last();
        builder.detail("credentials", reading.state().name().toLowerCase(java.util.Locale.ROOT));
        builder.detail("since", reading.at().toString());
        if (reading.state() == ProviderAccess.State.ACCEPTED) {
            builder.up();
        } else if (reading.state() == ProviderAccess.State.UNCHECKED && node.role() == NodeRole.Role.STANDBY) {
            builder.message("not checked on a standby: the credentials are tried when this node becomes active").up();
        } else {
            builder.message(reading.detail()).down();
        }
    }
}
