package org.topupbatch.observe;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/** Readiness: the provider accepted our credentials when it last answered. */
public final class ProviderAccessHealthCheck extends AbstractHealthCheck {

    private final ProviderAccess access;

    public ProviderAccessHealthCheck(ProviderAccess access) {
        super("topup", "provider");
        this.access = access;
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
        } else {
            builder.message(reading.detail()).down();
        }
    }
}
