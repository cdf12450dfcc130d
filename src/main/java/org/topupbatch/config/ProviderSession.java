package org.topupbatch.config;

import org.topupbatch.settings.Settings;
import org.topupbatch.settings.ProviderAccount;
import org.topupbatch.provider.CallLog;

import java.time.Clock;
import java.time.Duration;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.journal.Journal;
import org.topupbatch.provider.ApiUsage;
import org.topupbatch.provider.HttpProviderClient;
import org.topupbatch.provider.Profile;
import org.topupbatch.provider.ProviderEndpoint;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.Signer;
import org.topupbatch.provider.Tier;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * The provider as a one-off command ({@code plan}) reaches it: the configured provider, or, when none
 * is configured, a sandbox on the embedded sandbox's account (its state file, read-only), so prices
 * and balance are the ones the service sees. Calls go through a rate
 * budget kept in the journal's call log, which the running service shares: a plan never pushes the
 * account over its rate limit.
 */
public final class ProviderSession implements AutoCloseable {

    private static final long UNKNOWN_DAILY_LIMIT = 10_000;

    private final SandboxProvider sandbox;
    private final HttpProviderClient client;
    private final RateBudget budget;
    public final ProviderGateway gateway;
    private final int rateLimit;
    /** topup.daily-limit (0: from the profile, else UNKNOWN_DAILY_LIMIT); the minute's setting never sets it. */
    private long dailyLimit;

    /** @param lookup where the settings were read from (the embedded sandbox's own settings are read there too) */
    public ProviderSession(Settings settings, java.util.function.Function<String, String> lookup, Journal journal, Clock clock) {
        this(settings, embeddedIfNone(settings, lookup), settings.provider().baseUrl(), settings.provider().apiKey(), settings.provider().apiSecret(),
                settings.provider().dialect(), settings.provider().rateLimit(), journal.callLog(), clock);
        this.dailyLimit = settings.provider().dailyLimit();
    }

    /**
     * One named account of topup.providers, with its own dialect, credentials and limit. Its calls are
     * journaled under its name, beside the running service's calls for the same account, and its budget
     * counts those: a plan never pushes an account over its limit. The limits the journal remembers are
     * the single account's, so an account neither reads nor replaces them.
     */
    public static ProviderSession forAccount(Settings settings, ProviderAccount account, Journal journal, Clock clock) {
        return new ProviderSession(settings, null, account.baseUrl(), account.apiKey(), account.apiSecret(),
                account.dialect(), account.rateLimit(), journal.callLogOf(account.name()), clock);
    }

    private ProviderSession(Settings settings, SandboxProvider sandbox, String baseUrl, String apiKey, String apiSecret,
                            String dialect, int rateLimit, CallLog callLog, Clock clock) {
        this.sandbox = sandbox;
        this.rateLimit = rateLimit;
        if (sandbox != null) {
            baseUrl = sandbox.baseUrl();
        }
        Duration longestCall = settings.submit().connectTimeout().multipliedBy(2).plus(settings.submit().responseTimeout());
        budget = RateBudget.restore(clock, callLog, longestCall, RateBudget.Waiter.REAL,
                new AccountLimits(Tier.BASIC.requestsPerMinute(), UNKNOWN_DAILY_LIMIT, 0, clock.instant()));
        // the provider route in a Camel of its own: a command has no other routes
        client = HttpProviderClient.standalone(new ProviderEndpoint(baseUrl,
                new Signer(apiKey, apiSecret), settings.submit().connectTimeout(), settings.submit().responseTimeout(),
                org.topupbatch.provider.Dialect.named(dialect).orElse(org.topupbatch.provider.Dialect.TOPUP)),
                budget);
        gateway = new ProviderGateway(client, budget);
    }

    /** With no provider configured, a sandbox on the embedded sandbox's account; otherwise none. */
    private static SandboxProvider embeddedIfNone(Settings settings, java.util.function.Function<String, String> lookup) {
        if (!settings.provider().embeddedSandbox()) {
            return null;
        }
        SandboxConfig config = SandboxConfig.fromLookup(lookup)
                .setApiKey(settings.provider().apiKey()).setApiSecret(settings.provider().apiSecret())
                .setWebhookUrl(""); // the service's receiver hears only from the sandbox it runs
        if (config.stateFile() == null) {
            config.setStateFile(embeddedSandboxState(settings));
        }
        // the running service's account as last written, never written from here
        return SandboxProvider.start(config.setStateReadOnly(true), 0);
    }

    /** Where the embedded sandbox keeps its account (docs/sandbox.md). */
    public static java.nio.file.Path embeddedSandboxState(Settings settings) {
        return settings.folders().data().resolve("sandbox").resolve("state.json");
    }

    public String baseUrl() {
        return client.endpoint().baseUrl();
    }

    public boolean sandbox() {
        return sandbox != null;
    }

    /** The account's limits from its profile (its tier when the profile has no API usage). */
    public AccountLimits limits() {
        long perDayIfUnsaid = dailyLimit > 0 ? dailyLimit : UNKNOWN_DAILY_LIMIT;
        if (!client.endpoint().dialect().supports(org.topupbatch.provider.ProviderClient.PROFILE)) {
            budget.setLimits(rateLimit > 0 ? rateLimit : Tier.BASIC.requestsPerMinute(), perDayIfUnsaid, 0);
            return budget.limits();
        }
        Profile profile = gateway.profile();
        ApiUsage usage = profile.apiUsage();
        int perMinute = rateLimit > 0 ? rateLimit : usage != null && usage.limitPerMinute() > 0 ? usage.limitPerMinute()
                : Tier.parse(profile.tier()).orElse(Tier.BASIC).requestsPerMinute();
        long perDay = dailyLimit > 0 ? dailyLimit : usage != null && usage.limitPerDay() > 0 ? usage.limitPerDay()
                : UNKNOWN_DAILY_LIMIT;
        budget.setLimits(perMinute, perDay, usage == null ? 0 : usage.today());
        return budget.limits();
    }

    @Override
    public void close() {
        client.close();
        if (sandbox != null) {
            sandbox.close();
        }
    }
}
