package org.topupbatch.settings;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Whom the product orders from: the one account of {@code topup.base-url} (or the embedded sandbox
 * when no provider is set) or the named accounts of {@code topup.providers}
 * (docs/accounts-and-dialects.md#several-accounts).
 *
 * @param baseUrl    null for the embedded sandbox and with named accounts
 * @param dialect    how the single account's API is spelt
 * @param rateLimit  the single account's requests per minute when the provider cannot say (0: its profile or tier)
 * @param dailyLimit its requests per day when the provider cannot say (0: its profile, else 10,000)
 * @param productMap null: none (named accounts only)
 * @param accounts   the named accounts; empty: the one account above
 */
public record ProviderSettings(String baseUrl, String apiKey, String apiSecret, String dialect, int rateLimit,
        long dailyLimit, Path productMap, List<ProviderAccount> accounts) {

    /** The provider dialects there are (topup.dialect). */
    public static final List<String> DIALECTS = List.of("topup", "digiflazz");

    static final Setting<String> BASE_URL = Setting.of("topup.base-url", null,
            "provider base address", SettingChecks::url);
    static final Setting<String> API_KEY = Setting.of("topup.api-key", null,
            "reseller API key", SettingChecks::text);
    static final Setting<String> API_SECRET = Setting.of("topup.api-secret", null,
            "reseller secret", SettingChecks::text);
    static final Setting<String> DIALECT = Setting.of("topup.dialect", "topup",
            "how the provider's API is spelt", ProviderSettings::dialectName);
    static final Setting<Integer> RATE_LIMIT = Setting.of("topup.rate-limit", "0",
            "the account's requests per minute, for a provider that cannot tell", ProviderSettings::requestsPerMinute);
    static final Setting<Integer> DAILY_LIMIT = Setting.of("topup.daily-limit", "0",
            "the account's requests per day, for a provider that cannot tell", SettingChecks.integer(0, Integer.MAX_VALUE));
    static final Setting<Path> PRODUCT_MAP = Setting.of("topup.product-map", null,
            "a CSV file mapping your product codes to each account's SKU and order of preference", ProviderSettings::mapFile);
    static final Setting<String> PROVIDERS = Setting.of(ProviderAccounts.PROVIDERS, null,
            "named accounts instead of the one above", SettingChecks::text);


    // each named account's keys (topup.provider.NAME.*), made from the one account's so both read a value alike
    static final Setting<String> ACCOUNT_DIALECT = DIALECT.perAccount("the account's dialect, as topup.dialect");
    static final Setting<String> ACCOUNT_BASE_URL = BASE_URL.perAccount("the account's base address, as topup.base-url")
            .mustBeSet();
    static final Setting<String> ACCOUNT_API_KEY = API_KEY.perAccount("its API key").mustBeSet();
    static final Setting<String> ACCOUNT_API_SECRET = API_SECRET.perAccount("its secret").mustBeSet();
    static final Setting<Integer> ACCOUNT_RATE_LIMIT = RATE_LIMIT.perAccount("its requests per minute, as topup.rate-limit");
    static final Setting<String> ACCOUNT_WEBHOOK_SECRET = WebhookSettings.SECRET.perAccount(
            "topup.provider.NAME.webhook-secret", "the account's webhook secret");

    static final List<Setting<?>> DECLARED = List.of(BASE_URL, API_KEY, API_SECRET, DIALECT, RATE_LIMIT, DAILY_LIMIT,
            PROVIDERS, ACCOUNT_DIALECT, ACCOUNT_BASE_URL, ACCOUNT_API_KEY, ACCOUNT_API_SECRET, ACCOUNT_RATE_LIMIT,
            ACCOUNT_WEBHOOK_SECRET, PRODUCT_MAP);

    /** Reads the accounts' settings; throws {@link SettingsException} naming the first bad one. */
    static ProviderSettings load(Function<String, String> lookup) {
        Function<String, String> optional = key -> {
            String v = lookup.apply(key);
            return v == null || v.isBlank() ? null : v.trim();
        };
        List<ProviderAccount> accounts = ProviderAccounts.load(optional);
        if (!accounts.isEmpty()) {
            noSingleAccount(lookup);
        }
        String baseUrl = BASE_URL.read(lookup);
        ProviderChoice provider = ProviderChoice.of(baseUrl, API_KEY.read(lookup), API_SECRET.read(lookup));
        String dialect = DIALECT.read(lookup);
        if (!dialect.equals("topup") && provider.baseUrl() == null) {
            // the embedded sandbox speaks the default dialect only; a sandbox of another dialect runs on its own
            throw new SettingsException("topup.dialect=" + dialect + " needs topup.base-url (and the account's "
                    + "username in topup.api-key, its API key in topup.api-secret)");
        }
        int rateLimit = RATE_LIMIT.read(lookup);
        Path productMap = PRODUCT_MAP.read(lookup);
        if (productMap != null && accounts.isEmpty()) {
            throw new SettingsException("topup.product-map is set but topup.providers is not: the map names"
                    + " accounts of topup.providers");
        }
        return new ProviderSettings(provider.baseUrl(), provider.apiKey(), provider.apiSecret(), dialect, rateLimit,
                DAILY_LIMIT.read(lookup), productMap, accounts);
    }

    /** No provider is set at all: neither topup.base-url nor named accounts. */
    public boolean embeddedSandbox() {
        return baseUrl == null && accounts.isEmpty();
    }

    /** The accounts' names in order; empty with the one account of topup.base-url. */
    public List<String> accountNames() {
        return accounts.stream().map(ProviderAccount::name).toList();
    }

    /** The secret is never shown. */
    @Override
    public String toString() {
        return "ProviderSettings[baseUrl=" + (embeddedSandbox() ? "(embedded sandbox)" : baseUrl) + ", apiKey=" + apiKey
                + ", dialect=" + dialect + (accounts.isEmpty() ? "" : ", accounts=" + accountNames()) + "]";
    }

    private static String dialectName(String key, String v) {
        String name = v.toLowerCase(Locale.ROOT);
        if (!DIALECTS.contains(name)) {
            throw new SettingsException(key + ": '" + v + "' is not a dialect we speak (" + String.join(", ", DIALECTS) + ")");
        }
        return name;
    }

    /** Requests per minute, 0 to 100,000; 0 leaves the limit to the provider's profile or tier. */
    private static int requestsPerMinute(String key, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 0 || n > 100_000) {
                throw new SettingsException(key + ": " + n + " is outside 0..100000 (requests per minute; 0 = from the provider)");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new SettingsException(key + ": '" + v + "' is not a whole number of requests per minute");
        }
    }

    /** A file name, checked to be one; its content is read where the accounts are used. */
    private static Path mapFile(String key, String v) {
        try {
            return Path.of(v);
        } catch (InvalidPathException e) {
            throw new SettingsException(key + ": '" + v + "' is not a usable file name");
        }
    }

    /**
     * With topup.providers the single account's settings are not used: one set beside it would leave
     * the operator guessing which account orders, so it stops the start.
     */
    private static void noSingleAccount(Function<String, String> lookup) {
        for (Setting<?> single : List.of(BASE_URL, API_KEY, API_SECRET)) {
            if (single.written(lookup) != null) {
                throw new SettingsException("topup.providers and " + single.key() + " are both set: use one or the other"
                        + " (the named accounts' topup.provider.NAME.* settings, or the one account of topup.base-url)");
            }
        }
        String dialect = DIALECT.written(lookup);
        if (dialect != null && !dialect.equalsIgnoreCase("topup")) {
            throw new SettingsException("topup.dialect: with topup.providers each account has its own"
                    + " (topup.provider.NAME.dialect); leave topup.dialect unset");
        }
        String rate = RATE_LIMIT.written(lookup);
        if (rate != null && !rate.equals("0")) {
            throw new SettingsException("topup.rate-limit: with topup.providers each account has its own"
                    + " (topup.provider.NAME.rate-limit); leave topup.rate-limit at 0");
        }
    }
}
