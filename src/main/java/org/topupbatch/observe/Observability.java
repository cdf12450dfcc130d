package org.topupbatch.observe;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckRegistry;
import org.topupbatch.settings.Settings;
import org.topupbatch.cluster.NodeName;
import org.topupbatch.cluster.NodeRole;
import org.topupbatch.cluster.TwoNodes;
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

    private final PrometheusMeterRegistry registry;
    private final ProviderAccess access;

    private Observability(PrometheusMeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.access = new ProviderAccess(clock);
    }

    public static Observability bind(CamelContext camel, Settings settings, Journal journal, RateBudget budget,
                                     Clock clock, String provider) {
        Observability o = new Observability(meterRegistry(camel), clock);
        NodeRole node = nodeRole(camel, clock);
        TopupMetrics metrics = new TopupMetrics(o.registry, clock.instant());
        RunReadings readings = new RunReadings(journal, clock, metrics::batchesRead);
        metrics.gauges(o.registry, readings, budget);
        metrics.node(o.registry, node);
        camel.getRegistry().bind("dashboardView", new DashboardView(readings, budget, provider, node));
        if (settings.managementEnabled()) {
            camel.addComponent(ManagementHttp.COMPONENT, ManagementHttp.onPort(settings.managementPort()));
            if (settings.webhookEnabled()) {
                camel.addComponent("platform-http", ManagementHttp.onPort(settings.webhookPort()));
            }
        }
        HealthCheckRegistry health = HealthCheckRegistry.get(camel);
        if (health != null) {
            health.register(new JournalHealthCheck(journal));
            health.register(new ProviderAccessHealthCheck(o.access, node));
            health.register(new NodeHealthCheck(node));
        }
        return o;
    }

    /**
     * The registry /observe/metrics serves: Camel's when its metrics service started first (it then
     * made its own and keeps serving that one), else a new one it will find by name.
     */
    private static PrometheusMeterRegistry meterRegistry(CamelContext camel) {
        PrometheusMeterRegistry bound = camel.getRegistry().lookupByNameAndType(METRICS_REGISTRY, PrometheusMeterRegistry.class);
        if (bound != null) {
            return bound;
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        camel.getRegistry().bind(METRICS_REGISTRY, registry);
        return registry;
    }

    /** The node as the application bound it; a single node named after the host where nothing was bound (route tests). */
    private static NodeRole nodeRole(CamelContext camel, Clock clock) {
        NodeRole node = camel.getRegistry().lookupByNameAndType(TwoNodes.NODE_ROLE, NodeRole.class);
        return node != null ? node : NodeRole.single(NodeName.resolve(setting -> null), clock);
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
