package org.topupbatch.config;

import java.time.Clock;
import java.util.function.Function;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.provider.Accounts;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.provider.BalanceSeen;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.provider.ProviderRouteConfiguration;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.RequestGate;
import org.topupbatch.run.StartupRefusal;
import org.topupbatch.run.StoppableGate;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxStateException;
import org.topupbatch.settings.Settings;

/**
 * The provider: its accounts as one list ({@link Accounts}: those of topup.providers, or the one of
 * topup.base-url, which may be the embedded sandbox started here when the settings chose it), each with
 * the rate budget every call to it passes, the gate a clean stop closes, its limits and its price list,
 * and the typed client over routes/provider.yaml, whose beans {@link #routeConfiguration} binds.
 */
public final class ProviderConfiguration extends AreaConfiguration implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProviderConfiguration.class);

    private final Settings settings;
    private final Function<String, String> lookup;
    private final Clock clock;
    private final JournalConfiguration journal;
    /** How every provider request is counted and timed (the observe area's meter). */
    private java.util.function.BiFunction<RequestGate, String, RequestGate> meter = (gate, account) -> gate;
    /** Each account's metered gate (the unnamed account's under ""), made once. */
    private final java.util.Map<String, RequestGate> metered = new java.util.concurrent.ConcurrentHashMap<>();

    private SandboxProvider sandbox;
    private final ProviderRouteConfiguration route;
    private Accounts gateways;

    public ProviderConfiguration(Settings settings, Function<String, String> lookup, Clock clock, JournalConfiguration journal) {
        this.settings = settings;
        this.lookup = lookup;
        this.clock = clock;
        this.journal = journal;
        // one provider route for every account: each call's account picks its address, credentials and budget
        this.route = new ProviderRouteConfiguration(
                account -> accountParts(account).endpoint,
                account -> metered.computeIfAbsent(account == null ? "" : account,
                        k -> meter.apply(accountParts(account).gate, account)),
                account -> accountParts(account).balances);
    }

    // ---- the accounts: those of topup.providers, or the one of topup.base-url (docs/accounts-and-dialects.md#several-accounts) ----

    private java.util.Map<String, AccountParts> accounts;

    /**
     * Every account, in the order of topup.providers; the one account of topup.base-url under the name
     * null (a list of one). Made on first use: the embedded sandbox starts only when an account is needed.
     */
    synchronized java.util.Map<String, AccountParts> accounts() {
        if (accounts == null) {
            accounts = new java.util.LinkedHashMap<>();
            for (org.topupbatch.settings.ProviderAccount account : org.topupbatch.settings.AccountList.of(settings)) {
                // the unnamed account: the embedded sandbox serves it when it has no address
                accounts.put(account.name(), account.name() != null
                        ? AccountParts.named(settings, account, journal.journal(), clock)
                        : AccountParts.unnamed(settings, account.baseUrl() == null ? sandbox().baseUrl() : account.baseUrl(),
                                webhookSecret(), journal.journal(), clock));
            }
        }
        return accounts;
    }

    /** The accounts of topup.providers, by name (none with the one account of topup.base-url, which has no name). */
    java.util.Map<String, AccountParts> namedAccounts() {
        java.util.Map<String, AccountParts> named = new java.util.LinkedHashMap<>(accounts());
        named.remove(null);
        return named;
    }

    /** An account by name; for null, the first (the one of topup.base-url, or the first of topup.providers). */
    private AccountParts accountParts(String name) {
        AccountParts parts = name == null ? firstAccount() : accounts().get(name);
        if (parts == null) {
            throw new IllegalStateException("no account " + name + " in topup.providers");
        }
        return parts;
    }

    private AccountParts firstAccount() {
        return accounts().values().iterator().next();
    }

    /** One account's gateway (null: the one account of topup.base-url; with topup.providers, an error). */
    public ProviderGateway gateway(String account) {
        return gateways().of(account);
    }

    /**
     * One account's price list (null: the one account of topup.base-url). Null for an account
     * topup.providers does not name (a row routed under other settings), and, with several accounts, for
     * a row that has no account.
     */
    public CachedPriceCatalog prices(String account) {
        AccountParts parts = accounts().get(account);
        return parts == null ? null : parts.prices(camelForClients());
    }

    /** Each account's price list, by account name. */
    public java.util.Map<String, CachedPriceCatalog> accountPrices() {
        java.util.Map<String, CachedPriceCatalog> lists = new java.util.LinkedHashMap<>();
        accounts().keySet().forEach(name -> lists.put(name, prices(name)));
        return lists;
    }

    /**
     * The product map and each account's price list as it is now (the unnamed account's alone: every row
     * it can take goes to it). Beside other accounts, one whose list cannot be read takes no row of this
     * batch; when none can be read the batch waits, as a lone account's batch does when its list cannot be read.
     */
    public org.topupbatch.intake.RowRouter rowRouter() {
        java.util.List<String> names = new java.util.ArrayList<>(accounts().keySet());
        // a lone account is always asked (its cached list serves through a short outage): there is no other
        // account to go on with meanwhile, as Accounts.checkBalance says
        boolean others = names.size() > 1;
        org.topupbatch.provider.ProductMap map = productMap();
        java.util.Map<String, java.util.List<org.topupbatch.provider.Product>> lists = new java.util.LinkedHashMap<>();
        RuntimeException last = null;
        for (java.util.Map.Entry<String, org.topupbatch.provider.CachedPriceCatalog> account : accountPrices().entrySet()) {
            if (others && !gateways().reachable(account.getKey())) {
                LOG.warn("Account {} could not be connected to moments ago; it takes no row of this batch", account.getKey());
                continue;
            }
            try {
                account.getValue().refreshIfDue(org.topupbatch.provider.CachedPriceCatalog.DEFAULT_TTL);
                lists.put(account.getKey(), account.getValue().products());
            } catch (org.topupbatch.provider.PriceListUnavailableException | org.topupbatch.provider.ProviderException e) {
                if (connectionFailed(e)) {
                    gateways().unreachable(account.getKey());
                }
                if (others) { // alone, the failure is the batch's own (thrown below), said where the intake fails
                    LOG.warn("Account {}: its price list cannot be read ({}); it takes no row of this batch", account.getKey(),
                            e.getMessage());
                }
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
            java.util.List<String> names = new java.util.ArrayList<>(accounts().keySet());
            productMap = settings.provider().productMap() == null ? org.topupbatch.provider.ProductMap.identity(names)
                    : org.topupbatch.provider.ProductMap.load(settings.provider().productMap(), names);
        }
        return productMap;
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

    /** Every gate a clean stop closes: each account's. */
    public java.util.List<StoppableGate> gates() {
        return accounts().values().stream().map(a -> a.gate).toList();
    }

    /** Every rate budget: each account's. */
    public java.util.List<RateBudget> budgets() {
        return accounts().values().stream().map(a -> a.budget).toList();
    }

    private CamelContext camelForClients() {
        route.configure(camel); // the http component before the first request
        return camel;
    }

    /** The balance as of the latest provider answer that carried one (what shows one balance shows the first account's). */
    public BalanceSeen balances() {
        return firstAccount().balances;
    }

    void meterWith(java.util.function.BiFunction<RequestGate, String, RequestGate> meter) {
        this.meter = meter;
    }

    /** The beans of routes/provider.yaml and its http component, handed to Camel Main beside this class. */
    public ProviderRouteConfiguration routeConfiguration() {
        return route;
    }

    /** Each account's limits, learned at start-up and refreshed by routes/track.yaml: the list of accounts does it. */
    @BindToRegistry("accountLimits")
    public Accounts accountLimits() {
        return gateways();
    }

    // ---- what the other areas use ------------------------------------------------------------

    /** Every account's gateway, as one list: what sees one provider asks it (the total balance, the summed rate). */
    public synchronized Accounts gateways() {
        if (gateways == null) {
            java.util.List<Accounts.Account> each = new java.util.ArrayList<>();
            accounts().values().forEach(parts -> each.add(parts.asListed(camelForClients())));
            gateways = new Accounts(each);
        }
        return gateways;
    }

    /**
     * The price list where one list is asked (the batch check, the outage watch): the one account's; with
     * topup.providers the first account's stands in, rows use their account's ({@link #prices(String)}).
     */
    public CachedPriceCatalog prices() {
        return firstAccount().prices(camelForClients());
    }

    /** The rate budget where one is shown (progress line, metrics): the first account's. */
    public RateBudget budget() {
        return firstAccount().budget;
    }

    /** The first account's address (the one account's, shown in the start-up failure). */
    public String baseUrl() {
        return firstAccount().account.baseUrl();
    }

    /** The embedded sandbox signs with its own (demo) webhook secret unless one is set: both sides use the same. */
    public String webhookSecret() {
        if (!settings.provider().embeddedSandbox()) {
            return settings.webhook().secret();
        }
        if (settings.webhook().secret() == null && settings.webhook().enabled()) {
            LOG.info("Webhooks are verified with the embedded sandbox's demo webhook secret");
        }
        return sandbox().config().webhookSecret();
    }

    /** Shown in the first log line: where orders go, account by account. */
    public String shown() {
        return String.join(", ", accounts().values().stream()
                .map(a -> a.name() != null ? "account " + a
                        : sandbox != null ? "the embedded sandbox at " + sandbox.baseUrl() : a.account.baseUrl())
                .toList());
    }

    /** Started here, and only when the settings chose it (no provider setting given, see ProviderChoice). */
    private synchronized SandboxProvider sandbox() {
        if (sandbox == null) {
            SandboxConfig config = SandboxConfig.fromLookup(lookup)
                    .setApiKey(settings.provider().apiKey()).setApiSecret(settings.provider().apiSecret()); // the embedded one always matches
            if (settings.webhook().secret() != null) {
                config.setWebhookSecret(settings.webhook().secret());
            }
            if (settings.webhook().enabled() && (config.webhookUrl() == null || config.webhookUrl().isBlank())) {
                config.setWebhookUrl("http://127.0.0.1:" + settings.webhook().port() + settings.webhook().path());
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
