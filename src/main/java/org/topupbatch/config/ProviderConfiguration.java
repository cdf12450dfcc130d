package org.topupbatch.config;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
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
    private java.util.function.BiFunction<RequestGate, String, RequestGate> meter = (gate, account) -> gate;
    /** Each account's metered gate (the single account's under ""), made once. */
    private final java.util.Map<String, RequestGate> metered = new java.util.concurrent.ConcurrentHashMap<>();

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
        balances.onReading(new JournaledBalanceReadings(journal::journal, null));
        // one provider route for every account: each call's account picks its address, credentials and budget
        this.route = new ProviderRouteConfiguration(
                account -> account == null ? endpoint() : accountParts(account).endpoint,
                account -> metered.computeIfAbsent(account == null ? "" : account,
                        k -> meter.apply(account == null ? gate() : accountParts(account).gate, account)),
                account -> account == null ? balances : accountParts(account).balances);
    }

    // ---- several accounts (README "Several accounts") ----------------------------------------------

    private java.util.Map<String, AccountParts> accounts;

    /** Whether named accounts (topup.providers) are set. */
    public boolean severalAccounts() {
        return settings.severalAccounts();
    }

    /** The named accounts, in the order of topup.providers (empty with a single account). */
    synchronized java.util.Map<String, AccountParts> accounts() {
        if (accounts == null) {
            accounts = new java.util.LinkedHashMap<>();
            for (org.topupbatch.settings.ProviderAccount account : settings.accounts()) {
                accounts.put(account.name(), new AccountParts(settings, account, journal.journal(), clock));
            }
        }
        return accounts;
    }

    private AccountParts accountParts(String name) {
        AccountParts parts = accounts().get(name);
        if (parts == null) {
            throw new IllegalStateException("no account " + name + " in topup.providers");
        }
        return parts;
    }

    private AccountParts firstAccount() {
        return accounts().values().iterator().next();
    }

    /** One account's gateway (several accounts). */
    public ProviderGateway gateway(String account) {
        return account == null ? gateway() : accountParts(account).gateway(camelForClients());
    }

    /**
     * One account's price list (several accounts); the single account's for null. Null for an account
     * topup.providers does not name (a row routed under other settings), and, with several accounts, for
     * a row that has no account.
     */
    public CachedPriceCatalog prices(String account) {
        if (account == null) {
            return severalAccounts() ? null : prices();
        }
        AccountParts parts = accounts().get(account);
        return parts == null ? null : parts.prices(camelForClients());
    }

    /** Each account's price list, by account name (several accounts). */
    public java.util.Map<String, CachedPriceCatalog> accountPrices() {
        java.util.Map<String, CachedPriceCatalog> lists = new java.util.LinkedHashMap<>();
        accounts().keySet().forEach(name -> lists.put(name, prices(name)));
        return lists;
    }

    /**
     * Several accounts: the product map and each account's price list as it is now. An account whose
     * list cannot be read takes no row of this batch; when none can be read the batch waits, as with one
     * account whose list cannot be read.
     */
    public org.topupbatch.intake.RowRouter rowRouter() {
        java.util.List<String> names = java.util.List.copyOf(accounts().keySet());
        org.topupbatch.provider.ProductMap map = productMap();
        java.util.Map<String, java.util.List<org.topupbatch.provider.Product>> lists = new java.util.LinkedHashMap<>();
        RuntimeException last = null;
        for (java.util.Map.Entry<String, org.topupbatch.provider.CachedPriceCatalog> account : accountPrices().entrySet()) {
            if (!accountsGateway().reachable(account.getKey())) {
                LOG.warn("Account {} could not be connected to moments ago; it takes no row of this batch", account.getKey());
                continue;
            }
            try {
                account.getValue().refreshIfDue(org.topupbatch.provider.CachedPriceCatalog.DEFAULT_TTL);
                lists.put(account.getKey(), account.getValue().products());
            } catch (org.topupbatch.provider.PriceListUnavailableException | org.topupbatch.provider.ProviderException e) {
                if (connectionFailed(e)) {
                    accountsGateway().unreachable(account.getKey());
                }
                LOG.warn("Account {}: its price list cannot be read ({}); it takes no row of this batch", account.getKey(),
                        e.getMessage());
                last = e;
            }
        }
        if (lists.isEmpty()) {
            throw last != null ? last : new org.topupbatch.provider.PriceListUnavailableException(
                    "no account's price list can be read now (topup.providers: " + String.join(", ", names) + ")", null);
        }
        return new org.topupbatch.intake.RowRouter(map, lists);
    }

    private org.topupbatch.provider.ProductMap productMap;

    /** The product map, read once (the settings checked it at start); every product under its own code without one. */
    private synchronized org.topupbatch.provider.ProductMap productMap() {
        if (productMap == null) {
            java.util.List<String> names = java.util.List.copyOf(accounts().keySet());
            productMap = settings.productMap() == null ? org.topupbatch.provider.ProductMap.identity(names)
                    : org.topupbatch.provider.ProductMap.load(settings.productMap(), names);
        }
        return productMap;
    }

    /** Several accounts: the gateway that speaks for all of them. */
    private org.topupbatch.provider.AccountsGateway accountsGateway() {
        return (org.topupbatch.provider.AccountsGateway) gateway();
    }

    /** Whether a failure was, at its root, a connection that could not be made. */
    private static boolean connectionFailed(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof org.topupbatch.provider.ProviderException pe && pe.is(org.topupbatch.provider.ProviderError.CONNECTION_FAILED)) {
                return true;
            }
        }
        return false;
    }

    /** An account's balance as its latest answer showed it (the report reads every balance first), or null. */
    public Long lastBalance(String account) {
        AccountParts parts = accounts().get(account);
        return parts == null ? null : parts.balances.last().map(BalanceSeen.Reading::balance).orElse(null);
    }

    /** Every gate a clean stop closes: the single account's, or each account's. */
    public java.util.List<StoppableGate> gates() {
        return severalAccounts() ? accounts().values().stream().map(a -> a.gate).toList() : java.util.List.of(gate());
    }

    /** Every rate budget: the single account's, or each account's. */
    public java.util.List<RateBudget> budgets() {
        return severalAccounts() ? accounts().values().stream().map(a -> a.budget).toList() : java.util.List.of(budget());
    }

    private CamelContext camelForClients() {
        route.configure(camel); // the http component before the first request
        return camel;
    }

    /** The balance as of the latest provider answer that carried one. */
    public BalanceSeen balances() {
        // several accounts: what shows one balance shows the first account's
        return severalAccounts() ? firstAccount().balances : balances;
    }

    void meterWith(java.util.function.BiFunction<RequestGate, String, RequestGate> meter) {
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
            if (severalAccounts()) {
                java.util.Map<String, org.topupbatch.provider.AccountsLimitsRefresh.Account> each = new java.util.LinkedHashMap<>();
                accounts().forEach((name, parts) -> each.put(name, new org.topupbatch.provider.AccountsLimitsRefresh.Account(
                        parts.limits(camelForClients()), parts.gateway(camelForClients()))));
                accountLimits = new org.topupbatch.provider.AccountsLimitsRefresh(journal.journal(), each, budget(), clock)
                        .onUnreachable(accountsGateway()::unreachable);
            } else {
                accountLimits = new AccountLimitsRefresh(journal.journal(), gateway(), budget(), clock, settings.rateLimit(),
                        settings.dailyLimit());
            }
        }
        return accountLimits;
    }

    // ---- what the other areas use ------------------------------------------------------------

    public synchronized ProviderGateway gateway() {
        if (gateway == null) {
            if (severalAccounts()) {
                java.util.Map<String, ProviderGateway> each = new java.util.LinkedHashMap<>();
                accounts().keySet().forEach(name -> each.put(name, gateway(name)));
                gateway = new org.topupbatch.provider.AccountsGateway(each, client(), budget());
            } else {
                gateway = new ProviderGateway(client(), budget());
            }
        }
        return gateway;
    }

    /** The price list, one cache for the run: intake checks rows against it, sending checks prices again. */
    public synchronized CachedPriceCatalog prices() {
        if (severalAccounts()) {
            return prices(firstAccount().name()); // stands in where one list is asked; rows use their account's
        }
        if (prices == null) {
            prices = new CachedPriceCatalog(gateway()::priceList, journal.journal().priceListOf(null, baseUrl()),
                    "the provider");
        }
        return prices;
    }

    public synchronized RateBudget budget() {
        if (severalAccounts()) {
            return firstAccount().budget; // what shows one budget shows the first account's
        }
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
        if (severalAccounts()) {
            return firstAccount().gate;
        }
        if (gate == null) {
            gate = new StoppableGate(budget());
        }
        return gate;
    }

    public String baseUrl() {
        if (severalAccounts()) {
            return firstAccount().account.baseUrl();
        }
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
        if (severalAccounts()) {
            return accounts().size() + " accounts: " + String.join(", ", accounts().values().stream().map(AccountParts::toString).toList());
        }
        return sandbox != null ? "the embedded sandbox at " + sandbox.baseUrl() : settings.baseUrl();
    }

    private synchronized ProviderEndpoint endpoint() {
        if (severalAccounts()) {
            return firstAccount().endpoint;
        }
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
            client = severalAccounts() ? new HttpProviderClient(camel, endpoint(), firstAccount().name())
                    : new HttpProviderClient(camel, endpoint());
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
        if (accounts != null) {
            accounts.values().forEach(AccountParts::close);
        }
        route.close();
        if (sandbox != null) {
            sandbox.close();
            sandbox = null;
        }
    }
}
