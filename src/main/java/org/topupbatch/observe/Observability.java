package org.topupbatch.observe;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckRegistry;
import org.topupbatch.app.Settings;
import org.topupbatch.journal.Journal;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.RequestGate;

/**
 * The dashboard, health and metrics parts of one run, bound into Camel by name: the
 * {@code management-http} component, the {@code dashboardView} bean, the readiness checks, and
 * the meter registry camel-micrometer-prometheus serves at /observe/metrics.
 */
public final class Observability {

    /** The name camel-micrometer-prometheus looks its registry up by (it creates one when absent). */
    static final String METRICS_REGISTRY = "metricsRegistry";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ProviderAccess access;

    private Observability(Clock clock) {
        this.access = new ProviderAccess(clock);
    }

    public static Observability bind(CamelContext camel, Settings settings, Journal journal, RateBudget budget,
                                     Clock clock, String provider) {
        Observability o = new Observability(clock);
        TopupMetrics metrics = new TopupMetrics(o.registry, clock.instant());
        RunReadings readings = new RunReadings(journal, clock, metrics::batchesRead);
        metrics.gauges(o.registry, readings, budget);
        camel.getRegistry().bind(METRICS_REGISTRY, o.registry);
        camel.getRegistry().bind("dashboardView", new DashboardView(readings, budget, provider));
        if (settings.managementEnabled()) {
            camel.addComponent(ManagementHttp.COMPONENT, ManagementHttp.onPort(settings.managementPort()));
            if (settings.webhookEnabled()) {
                camel.addComponent("platform-http", ManagementHttp.onPort(settings.webhookPort()));
            }
        }
        HealthCheckRegistry health = HealthCheckRegistry.get(camel);
        if (health != null) {
            health.register(new JournalHealthCheck(journal));
            health.register(new ProviderAccessHealthCheck(o.access));
        }
        return o;
    }

    /** The gate every provider request passes, counted and timed. */
    public RequestGate meter(RequestGate gate) {
        return new MeteredGate(gate, registry, access);
    }

    /** The provider's verdict on the credentials, as the start-up check learned it. */
    public ProviderAccess providerAccess() {
        return access;
    }
}
