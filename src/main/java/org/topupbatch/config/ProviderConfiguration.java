package org.topupbatch.config;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.camel.BindToRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.AccountLimitsRefresh;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.provider.BalanceSeen;
import org.topupbatch.provider.HttpProviderClient;
import org.topupbatch.provider.Dialect;
import org.topupbatch.provider.ProviderEndpoint;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.provider.ProviderRouteConfiguration;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.RequestGate;
import org.topupbatch.provider.Signer;
import org.topupbatch.provider.Tier;
import org.topupbatch.run.StartupRefusal;
import org.topupbatch.run.StoppableGate;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxStateException;
import org.topupbatch.settings.Settings;

/**
 * The provider: its address (the one set, or the embedded sandbox started here when the settings
 * chose it), the one rate budget every call passes, the gate a clean stop closes, the account's
 * limits, and the typed client over routes/provider.yaml, whose beans {@link #routeConfiguration} binds.
 */
public final class ProviderConfiguration extends AreaConfiguration implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProviderConfiguration.class);

    private final Settings settings;
    private final Function<String, String> lookup;
    private final Clock clock;
    private final JournalConfiguration journal;
    /** How every provider request is counted and timed (the observe area's meter). */
    private UnaryOperator<RequestGate> meter = UnaryOperator.identity();

    private SandboxProvider sandbox;
    private RateBudget budget;
    private StoppableGate gate;
    private ProviderEndpoint endpoint;
    private HttpProviderClient client;
    private final ProviderRouteConfiguration route;
    private final BalanceSeen balances;
    private ProviderGateway gateway;
    private AccountLimitsRefresh accountLimits;
    private CachedPriceCatalog prices;

    public ProviderConfiguration(Settings settings, Function<String, String> lookup, Clock clock, JournalConfiguration journal) {
        this.settings = settings;
        this.lookup = lookup;
        this.clock = clock;
        this.journal = journal;
        this.balances = new BalanceSeen(clock);
        this.route = new ProviderRouteConfiguration(this::endpoint, () -> meter.apply(gate()), balances);
    }

    /** The balance as of the latest provider answer that carried one. */
    public BalanceSeen balances() {
        return balances;
    }

    void meterWith(UnaryOperator<RequestGate> meter) {
        this.meter = meter;
    }

    /** The beans of routes/provider.yaml and its http component, handed to Camel Main beside this class. */
    public ProviderRouteConfiguration routeConfiguration() {
        return route;
    }

    /** The account's limits, learned at start-up and kept in the journal (routes/provider.yaml refreshes them). */
    @BindToRegistry("accountLimits")
    public synchronized AccountLimitsRefresh accountLimits() {
        if (accountLimits == null) {
            accountLimits = new AccountLimitsRefresh(journal.journal(), gateway(), budget(), clock, settings.rateLimit());
        }
        return accountLimits;
    }

    // ---- what the other areas use ------------------------------------------------------------

    public synchronized ProviderGateway gateway() {
        if (gateway == null) {
            gateway = new ProviderGateway(client(), budget());
        }
        return gateway;
    }

    /** The price list, one cache for the run: intake checks rows against it, sending checks prices again. */
    public synchronized CachedPriceCatalog prices() {
        if (prices == null) {
            prices = new CachedPriceCatalog(gateway()::priceList);
        }
        return prices;
    }

    public synchronized RateBudget budget() {
        if (budget == null) {
            // A request is over by the pool lease, the connect and the answer timeouts at the latest.
            Duration longestCall = settings.connectTimeout().multipliedBy(2).plus(settings.responseTimeout());
            budget = RateBudget.restore(clock, journal.journal(), longestCall, RateBudget.Waiter.REAL,
                    new AccountLimits(Tier.BASIC.requestsPerMinute(), AccountLimitsRefresh.UNKNOWN_DAILY_LIMIT, 0,
                            clock.instant()));
        }
        return budget;
    }

    /** The gate a clean stop closes: no new request starts, waiters for the budget wake. */
    public synchronized StoppableGate gate() {
        if (gate == null) {
            gate = new StoppableGate(budget());
        }
        return gate;
    }

    public String baseUrl() {
        return settings.embeddedSandbox() ? sandbox().baseUrl() : settings.baseUrl();
    }

    /** The embedded sandbox signs with its own (demo) webhook secret unless one is set: both sides use the same. */
    public String webhookSecret() {
        if (!settings.embeddedSandbox()) {
            return settings.webhookSecret();
        }
        if (settings.webhookSecret() == null && settings.webhookEnabled()) {
            LOG.info("Webhooks are verified with the embedded sandbox's demo webhook secret");
        }
        return sandbox().config().webhookSecret();
    }

    /** Shown in the first log line: where orders go. */
    public String shown() {
        return sandbox != null ? "the embedded sandbox at " + sandbox.baseUrl() : settings.baseUrl();
    }

    private synchronized ProviderEndpoint endpoint() {
        if (endpoint == null) {
            endpoint = new ProviderEndpoint(baseUrl(), new Signer(settings.apiKey(), settings.apiSecret()),
                    settings.connectTimeout(), settings.responseTimeout(),
                    Dialect.named(settings.dialect()).orElse(Dialect.TOPUP));
        }
        return endpoint;
    }

    private synchronized HttpProviderClient client() {
        if (client == null) {
            route.configure(camel); // the http component before the first request
            client = new HttpProviderClient(camel, endpoint());
        }
        return client;
    }

    /** Started here, and only when the settings chose it (no provider setting given, see ProviderChoice). */
    private synchronized SandboxProvider sandbox() {
        if (sandbox == null) {
            SandboxConfig config = SandboxConfig.fromLookup(lookup)
                    .setApiKey(settings.apiKey()).setApiSecret(settings.apiSecret()); // the embedded one always matches
            if (settings.webhookSecret() != null) {
                config.setWebhookSecret(settings.webhookSecret());
            }
            if (settings.webhookEnabled() && (config.webhookUrl() == null || config.webhookUrl().isBlank())) {
                config.setWebhookUrl("http://127.0.0.1:" + settings.webhookPort() + settings.webhookPath());
            }
            if (config.stateFile() == null) {
                config.setStateFile(ProviderSession.embeddedSandboxState(settings)); // its orders outlive a restart
            }
            try {
                sandbox = SandboxProvider.start(config, 0);
            } catch (SandboxStateException e) {
                throw new StartupRefusal(e.getMessage());
            }
            LOG.info("Embedded sandbox provider listening on {} (account kept in {})", sandbox.baseUrl(), config.stateFile());
        }
        return sandbox;
    }

    /** The client and its connections, then the embedded sandbox. */
    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
        route.close();
        if (sandbox != null) {
            sandbox.close();
            sandbox = null;
        }
    }
}
