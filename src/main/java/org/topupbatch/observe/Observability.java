package org.topupbatch.observe;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckRegistry;
import org.topupbatch.cluster.NodeRole;
import org.topupbatch.journal.StatusJournal;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.RequestGate;

/**
 * The dashboard, health and metrics parts of one run: the meter registry camel-micrometer-prometheus
 * serves at /observe/metrics, the dashboard's view, the readiness checks, and the provider's
 * verdict on the credentials. The observe area's configuration class binds them.
 */
public final class Observability implements AutoCloseable {

    /** The name camel-micrometer-prometheus looks its registry up by (it creates one when absent). */
    public static final String METRICS_REGISTRY = "metricsRegistry";

    private final PrometheusMeterRegistry registry;
    private final ProviderAccess access;
    private final ProviderReach reach;
    private final RunReadings readings;
    private final DashboardView dashboard;
    private final NodeRole node;
    private final TopupMetrics metrics;
    private final JvmGcMetrics gc;

    /**
     * {@code readings}: what the metrics and the dashboard show of the journal; {@code accounts}: several
     * accounts, in the order of topup.providers (empty with one account).
     */
    public Observability(PrometheusMeterRegistry registry, RunReadings readings, RateBudget budget, NodeRole node,
                         Clock clock, String provider, Path inbox, java.time.Duration outageWait,
                         java.util.List<ObservedAccount> accounts) {
        this.registry = registry;
        this.node = node;
        this.access = new ProviderAccess(clock);
        this.reach = new ProviderReach(clock);
        // before any meter of ours: Micrometer warns (and may not apply them to existing meters) otherwise
        lintedNames(registry);
        this.metrics = new TopupMetrics(registry);
        this.readings = readings;
        metrics.gauges(registry, readings, budget, clock);
        metrics.accounts(registry, accounts);
        metrics.node(registry, node);
        metrics.inbox(registry, inbox);
        this.gc = jvmAndProcess(registry);
        this.dashboard = new DashboardView(readings, budget, provider, node, clock, outageWait, accounts, reach);
    }

    /**
     * Micrometer's own JVM and process meters, under the names standard JVM dashboards read
     * (jvm_memory_*, jvm_gc_*, jvm_threads_*, jvm_classes_*, process_cpu_usage, system_cpu_usage,
     * process_uptime_seconds, process_files_open_files). The GC meters listen to the JVM's GC
     * notifications until closed.
     */
    private static void lintedNames(MeterRegistry registry) {
        // Two of ProcessorMetrics' names fail promtool's lint: process_cpu_time_ns_total (an
        // abbreviated unit; process_cpu_usage says the same) is left out, and system_cpu_count (a
        // gauge named like a summary's _count) is exported as system_cpus.
        registry.config().meterFilter(MeterFilter.deny(id -> id.getName().equals("process.cpu.time")));
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.getName().equals("system.cpu.count") ? id.withName("system.cpus") : id;
            }
        });
    }

    private static JvmGcMetrics jvmAndProcess(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        return gc;
    }

    /** The batch duration timer and the gauges. */
    public TopupMetrics metrics() {
        return metrics;
    }

    /** Stops listening to GC notifications. */
    @Override
    public void close() {
        gc.close();
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
    public void registerHealthChecks(CamelContext camel, StatusJournal journal) {
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

    /** The gate every provider request passes, counted and timed, labelled with its provider (or account). */
    public RequestGate meter(RequestGate gate, String provider) {
        return new MeteredGate(gate, registry, access, provider, reach);
    }

    /** The provider's verdict on the credentials, as the start-up check learned it. */
    public ProviderAccess providerAccess() {
        return access;
    }
}
