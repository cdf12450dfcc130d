package org.topupbatch.settings;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads {@code topup.providers} and each named account's {@code topup.provider.NAME.*} settings.
 * The keys are made from the names, so they are looked up one by one through the same lookup as every
 * other setting: the environment variable of {@code topup.provider.main.base-url} is
 * {@code TOPUP_PROVIDER_MAIN_BASE_URL} by the usual rule.
 */
final class ProviderAccounts {

    static final String PROVIDERS = "topup.providers";
    /** Short and plain, since the name becomes part of setting keys, environment variables and log lines. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9-]{1,20}");

    private ProviderAccounts() {
    }

    /**
     * The accounts in the order topup.providers lists them; empty when it is unset.
     *
     * @param optional the lookup, blank values as null and trimmed
     */
    static List<ProviderAccount> load(Function<String, String> optional) {
        String list = optional.apply(PROVIDERS);
        if (list == null) {
            return List.of();
        }
        Set<String> names = new LinkedHashSet<>();
        for (String raw : list.split(",", -1)) {
            String name = raw.trim();
            if (!NAME.matcher(name).matches()) {
                throw new SettingsException(PROVIDERS + ": '" + name + "' is not an account name (1 to 20 lower-case"
                        + " letters, digits and -, the names separated by commas)");
            }
            if (!names.add(name)) {
                throw new SettingsException(PROVIDERS + ": '" + name + "' is listed twice");
            }
        }
        List<ProviderAccount> accounts = new ArrayList<>();
        for (String name : names) {
            accounts.add(account(name, optional));
        }
        return List.copyOf(accounts);
    }

    /** The key of one of an account's settings, e.g. {@code topup.provider.main.base-url}. */
    static String key(String name, String setting) {
        return "topup.provider." + name + "." + setting;
    }

    private static ProviderAccount account(String name, Function<String, String> optional) {
        String dialectKey = key(name, "dialect");
        String dialect = optional.apply(dialectKey);
        dialect = dialect == null ? "topup" : dialect.toLowerCase(Locale.ROOT);
        if (!ProviderSettings.DIALECTS.contains(dialect)) {
            throw new SettingsException(dialectKey + ": '" + optional.apply(dialectKey) + "' is not a dialect we speak ("
                    + String.join(", ", ProviderSettings.DIALECTS) + ")");
        }
        String baseUrl = SettingChecks.url(key(name, "base-url"), required(name, "base-url", optional));
        String apiKey = required(name, "api-key", optional);
        String apiSecret = required(name, "api-secret", optional);
        return new ProviderAccount(name, dialect, baseUrl, apiKey, apiSecret, rateLimit(name, optional),
                optional.apply(key(name, "webhook-secret")));
    }

    private static String required(String name, String setting, Function<String, String> optional) {
        String key = key(name, setting);
        String v = optional.apply(key);
        if (v == null) {
            throw new SettingsException(key + " is not set (" + SettingsLookup.environmentName(key) + ")");
        }
        return v;
    }

    private static int rateLimit(String name, Function<String, String> optional) {
        String key = key(name, "rate-limit");
        String v = optional.apply(key);
        if (v == null) {
            return 0;
        }
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
}
