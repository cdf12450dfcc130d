package org.topupbatch.config;

import java.time.Clock;
import java.time.Duration;
import org.apache.camel.CamelContext;
import org.topupbatch.journal.Journal;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.AccountLimitsRefresh;
import org.topupbatch.provider.BalanceSeen;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.provider.Dialect;
import org.topupbatch.provider.HttpProviderClient;
import org.topupbatch.provider.ProviderEndpoint;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.Signer;
import org.topupbatch.provider.Tier;
import org.topupbatch.run.StoppableGate;
import org.topupbatch.settings.ProviderAccount;
import org.topupbatch.settings.Settings;

/**
 * One account as a run uses it (docs/accounts-and-dialects.md#several-accounts; the one account of topup.base-url too): its address,
 * credentials and dialect, its own rate budget and stop gate, its balance as answers show it, its
 * client through the one provider route, and its price list.
 *
 * <p>Each account's calls are journaled under its name and its budget counts only those: every
 * account is held to its own limit, and together they send at the sum of their rates.
 */
final class AccountParts {

    final ProviderAccount account;
    final ProviderEndpoint endpoint;
    final RateBudget budget;
    final StoppableGate gate;
    final BalanceSeen balances;
    private final Clock clock;
    private final Journal journal;
    private HttpProviderClient client;
    private ProviderGateway gateway;
    private CachedPriceCatalog prices;
    private AccountLimitsRefresh limits;

    /** The limits the account's settings set: the rate (0 = asked of the provider) and, for the unnamed one, the day. */
    private final int configuredPerMinute;
    private final long configuredPerDay;

    /** An account of topup.providers. */
    static AccountParts named(Settings settings, ProviderAccount account, Journal journal, Clock clock) {
        return new AccountParts(settings, account, journal, clock,
                account.rateLimit() > 0 ? account.rateLimit() : Tier.BASIC.requestsPerMinute(), account.rateLimit(), 0);
    }

    /**
     * The one account of topup.base-url (docs/settings.md#settings), as a list of one: no name, so that its calls,
     * price list, balances and rows are journaled as they always were; its limits as topup.rate-limit and
     * topup.daily-limit set them, and remembered in the journal.
     */
    static AccountParts unnamed(Settings settings, String baseUrl, String webhookSecret, Journal journal, Clock clock) {
        ProviderAccount account = new ProviderAccount(null, settings.provider().dialect(), baseUrl, settings.provider().apiKey(),
                settings.provider().apiSecret(), settings.provider().rateLimit(), webhookSecret);
        return new AccountParts(settings, account, journal, clock, Tier.BASIC.requestsPerMinute(), settings.provider().rateLimit(),
                settings.provider().dailyLimit());
    }

    private AccountParts(Settings settings, ProviderAccount account, Journal journal, Clock clock, int startPerMinute,
                         int configuredPerMinute, long configuredPerDay) {
        this.account = account;
        this.journal = journal;
        this.clock = clock;
        this.configuredPerMinute = configuredPerMinute;
        this.configuredPerDay = configuredPerDay;
        endpoint = new ProviderEndpoint(account.baseUrl(), new Signer(account.apiKey(), account.apiSecret()),
                settings.submit().connectTimeout(), settings.submit().responseTimeout(), Dialect.named(account.dialect()).orElse(Dialect.TOPUP));
        Duration longestCall = settings.submit().connectTimeout().multipliedBy(2).plus(settings.submit().responseTimeout());
        budget = RateBudget.restore(clock, journal.callLogOf(account.name()), longestCall, RateBudget.Waiter.REAL,
                new AccountLimits(startPerMinute, AccountLimitsRefresh.UNKNOWN_DAILY_LIMIT, 0, clock.instant()));
        gate = new StoppableGate(budget);
        balances = new BalanceSeen(clock);
        balances.onReading(new JournaledBalanceReadings(() -> journal, account.name()));
    }

    String name() {
        return account.name();
    }

    synchronized ProviderGateway gateway(CamelContext camel) {
        if (gateway == null) {
            client = new HttpProviderClient(camel, endpoint, account.name());
            gateway = new ProviderGateway(client, budget);
        }
        return gateway;
    }

    /** The account's price list, cached as the single account's is, and kept in the journal under its name. */
    synchronized CachedPriceCatalog prices(CamelContext camel) {
        if (prices == null) {
            ProviderGateway g = gateway(camel);
            prices = new CachedPriceCatalog(g::priceList, journal.priceListOf(account.name(), account.baseUrl()),
                    account.name() == null ? "the provider" : "account " + account.name());
        }
        return prices;
    }

    /** Its limits: the rate set for it, else from its profile or tier. */
    synchronized AccountLimitsRefresh limits(CamelContext camel) {
        if (limits == null) {
            limits = new AccountLimitsRefresh(journal.callLogOf(account.name()), gateway(camel), budget, clock,
                    configuredPerMinute, configuredPerDay);
        }
        return limits;
    }

    /** This account in the list every path reads ({@link org.topupbatch.provider.Accounts}). */
    org.topupbatch.provider.Accounts.Account asListed(CamelContext camel) {
        return account.name() == null ? org.topupbatch.provider.Accounts.Account.unnamed(gateway(camel), limits(camel))
                : org.topupbatch.provider.Accounts.Account.named(account.name(), gateway(camel), limits(camel));
    }

    synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    @Override
    public String toString() {
        return account.name() + " (" + account.dialect() + ", " + account.baseUrl() + ")";
    }
}
