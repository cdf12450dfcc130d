package org.topupbatch.observe;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckRegistry;
import org.topupbatch.cluster.NodeRole;
import org.topupbatch.journal.Journal;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.RequestGate;

/**
 * The dashboard, health and metrics parts of one run: the meter registry camel-micrometer-prometheus
 * serves at /observe/metrics, the dashboard's view, the readiness checks, and the provider's
 * verdict on the credentials. The observe area's configuration class binds them.
 */
public final class Observability {

    /** The name camel-micrometer-prometheus looks its registry up by (it creates one when absent). */
    public static final String METRICS_REGISTRY = "metricsRegistry";

    private final PrometheusMeterRegistry registry;
    private final ProviderAccess access;
    private final RunReadings readings;
    private final DashboardView dashboard;
    private final NodeRole node;

    public Observability(PrometheusMeterRegistry registry, Journal journal, RateBudget budget, NodeRole node,
                         Clock clock, String provider) {
        this.registry = registry;
        this.node = node;
        this.access = new ProviderAccess(clock);
        TopupMetrics metrics = new TopupMetrics(registry, clock.instant());
        this.readings = new RunReadings(journal, clock, metrics::batchesRead);
        metrics.gauges(registry, readings, budget);
        metrics.node(registry, node);
        this.dashboard = new DashboardView(readings, budget, provider, node);
    }

    /**
     * The registry /observe/metrics serves: Camel's when its metrics service started first (it then
     * made its own and keeps serving that one), else a new one Camel finds under {@link #METRICS_REGISTRY}.
     */
    public static PrometheusMeterRegistry meterRegistry(CamelContext camel) {
        PrometheusMeterRegistry bound = camel.getRegistry().lookupByNameAndType(METRICS_REGISTRY, PrometheusMeterRegistry.class);
        return bound != null ? bound : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    /** The readiness checks of /observe/health: the journal, the provider's credentials, this node. */
    public void registerHealthChecks(CamelContext camel, Journal journal) {
        HealthCheckRegistry health = HealthCheckRegistry.get(camel);
        if (health != null) {
            health.register(new JournalHealthCheck(journal));
            health.register(new ProviderAccessHealthCheck(access, node));
            health.register(new NodeHealthCheck(node));
        }
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public DashboardView dashboard() {
        return dashboard;
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
