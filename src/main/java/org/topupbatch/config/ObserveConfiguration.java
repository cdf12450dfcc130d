package org.topupbatch.config;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
import org.topupbatch.observe.DashboardActions;
import org.topupbatch.observe.DashboardView;
import org.topupbatch.observe.ManagementHttp;
import org.topupbatch.observe.ObservedAccount;
import org.topupbatch.observe.Observability;
import org.topupbatch.settings.ProviderName;
import org.topupbatch.settings.Settings;

/**
 * Dashboard, health and metrics on the management port (docs/operating.md#dashboard-health-and-metrics):
 * the meter registry and the dashboard's view as beans, the readiness checks, and the HTTP servers
 * of the management and webhook ports.
 */
public final class ObserveConfiguration extends AreaConfiguration {

    private final Settings settings;
    private final Clock clock;
    private final JournalConfiguration journal;
    private final ProviderConfiguration provider;
    private final ClusterConfiguration cluster;
    private final NotifyConfiguration notify;
    private Observability observability;

    public ObserveConfiguration(Settings settings, Clock clock, JournalConfiguration journal, ProviderConfiguration provider,
                                ClusterConfiguration cluster, NotifyConfiguration notify) {
        this.notify = notify;
        this.settings = settings;
        this.clock = clock;
        this.journal = journal;
        this.provider = provider;
        this.cluster = cluster;
        provider.meterWith((gate, account) -> observability().meter(gate,
                account == null ? org.topupbatch.settings.ProviderName.of(settings) : account));
    }

    /** Bound under the name camel-micrometer-prometheus looks for, so /observe/metrics serves the topup_ meters. */
    @BindToRegistry(Observability.METRICS_REGISTRY)
    public PrometheusMeterRegistry metricsRegistry() {
        return observability().registry();
    }

    @BindToRegistry("dashboardView")
    public DashboardView dashboardView() {
        return observability().dashboard();
    }

    /** The HTTP door for ERPs (routes/http-intake.yaml), on the management port. */
    @BindToRegistry("httpIntake")
    public org.topupbatch.door.HttpIntake httpIntake() {
        // who may call it is decided once for the whole port (ManagementGuard), not here
        return new org.topupbatch.door.HttpIntake(journal.journal().intake(), journal.journal().reporting(), settings.folders().inbox(), settings.folders().reports(),
                settings.intake().token(), settings.intake().maxBytes(), settings.pickUp().mode() == org.topupbatch.settings.PickUpSettings.Mode.WATCH).withPreview(new org.topupbatch.door.UploadPreview(journal.journal().intake(),
                        () -> new org.topupbatch.intake.BatchCheck(provider.prices(), IntakeConfiguration.customerRules(settings),
                                settings.guards().balancePolicy(), settings.pickUp().inputCharset(), settings.guards().repeatWindow(), clock)
                                .routedBy(provider.rowRouter()),
                        () -> provider.gateways().checkBalance().balance(), () -> provider.gateways().requestsPerMinute(),
                        settings.folders().data().resolve("http-intake")))
                .withCallbacks(notify.callbacks(), journal.outbox());
    }

    /** The dashboard's hold, resume and cancel buttons (routes/dashboard.yaml). */
    @BindToRegistry("dashboardActions")
    public DashboardActions dashboardActions() {
        return new DashboardActions(journal.journal().control(), journal.journal().reporting(), clock);
    }

    @Override
    public void configure(CamelContext camelContext) {
        camel = camelContext;
        if (settings.management().enabled()) {
            // one guard in front of the whole management port, put there before it listens (ManagementGuard)
            org.topupbatch.observe.ManagementGuard guard =
                    new org.topupbatch.observe.ManagementGuard(org.topupbatch.observe.ManagementAccess.of(settings.management(), settings.intake()));
            org.topupbatch.observe.ManagementGuard.installOn(camelContext, guard);
            addStartupListener(camelContext, new org.apache.camel.StartupListener() {
                @Override
                public void onCamelContextStarting(CamelContext context, boolean alreadyStarted) {
                    if (!guard.mounted()) {
                        // never an unguarded port: a Camel that no longer adds its management server as before stops here
                        throw new org.topupbatch.run.StartupRefusal("the management port's guard could not be put in"
                                + " front of Camel's management server; set topup.management.port=0 to run without it");
                    }
                }

                @Override
                public void onCamelContextStarted(CamelContext context, boolean alreadyStarted) {
                }
            });
            camelContext.addComponent(ManagementHttp.COMPONENT, ManagementHttp.onPort(settings.management().port()));
            // the door's largest file, plus room for a multipart request's envelope
            ManagementHttp.limitManagementBodies(camelContext, settings.intake().maxBytes() + 65_536);
        }
        if (settings.webhook().enabled()) {
            // the webhook's header hygiene and security headers hold with the management port off too
            // (topup.management.port=0): Camel's stock platform-http would echo query values as answer headers
            camelContext.addComponent("platform-http", ManagementHttp.onPort(settings.webhook().port()));
        }
        observability().registerHealthChecks(camelContext, journal.journal().status());
        if (settings.sftp().inbox() == null) {
            // an SFTP inbox's local folder is the relay's own (sftp-inbox.yaml): its server has a check of its own
            org.apache.camel.health.HealthCheckRegistry.get(camelContext)
                    .register(new org.topupbatch.observe.InboxHealthCheck(settings.folders().inbox(), settings.inboxShown()));
        }
    }

    private static void addStartupListener(CamelContext camelContext, org.apache.camel.StartupListener listener) {
        try {
            camelContext.addStartupListener(listener);
        } catch (Exception e) {
            throw new org.apache.camel.RuntimeCamelException(e);
        }
    }

    public synchronized Observability observability() {
        if (observability == null) {
            org.topupbatch.journal.Journal j = journal.journal();
            org.topupbatch.observe.RunReadings readings = new org.topupbatch.observe.RunReadings(j.status(), j.reporting(),
                    j.control(), j.outages(), j.reconciliations(), clock, provider.balances());
            observability = new Observability(Observability.meterRegistry(camel), readings, provider.budget(),
                    cluster.node(), clock, ProviderName.of(settings), settings.folders().inbox(), settings.track().outageWait(),
                    observedAccounts());
            observability.metrics().notifications(observability.registry(), notify.notifications());
            observability.dashboard().withOutbox(() -> org.topupbatch.notify.OutboxLines.of(journal.outbox().state(10)));
            // each named account: whether this node leads it (two nodes: each account has a leader of its own)
            for (String account : provider.namedAccounts().keySet()) {
                io.micrometer.core.instrument.Gauge.builder("topup.account.leader", cluster.accountsLed(),
                        led -> led.leads(account) ? 1 : 0).tag("account", account)
                        .description("1 while this node sends and follows the account's orders (two nodes: it holds"
                                + " the account's lead)").register(observability.registry());
            }
        }
        return observability;
    }

    /** The named accounts, as the dashboard and the metrics show each (none with the one account of topup.base-url). */
    private List<ObservedAccount> observedAccounts() {
        List<ObservedAccount> each = new ArrayList<>();
        provider.namedAccounts().forEach((name, parts) -> each.add(new ObservedAccount(name, parts.account.dialect(),
                ObservedAccount.hostOf(parts.account.baseUrl()), parts.balances, parts.budget)));
        return each;
    }

    /** The GC meters' listeners, when Camel has stopped. */
    public synchronized void close() {
        if (observability != null) {
            observability.close();
        }
    }
}
