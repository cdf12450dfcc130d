package org.topupbatch.settings;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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

    /** One account's settings, read with the declarations of {@code topup.provider.NAME.*} (ProviderSettings). */
    private static ProviderAccount account(String name, Function<String, String> optional) {
        String dialect = ProviderSettings.ACCOUNT_DIALECT.forAccount(name).read(optional);
        String baseUrl = ProviderSettings.ACCOUNT_BASE_URL.forAccount(name).read(optional);
        String apiKey = ProviderSettings.ACCOUNT_API_KEY.forAccount(name).read(optional);
        String apiSecret = ProviderSettings.ACCOUNT_API_SECRET.forAccount(name).read(optional);
        return new ProviderAccount(name, dialect, baseUrl, apiKey, apiSecret,
                ProviderSettings.ACCOUNT_RATE_LIMIT.forAccount(name).read(optional),
                ProviderSettings.ACCOUNT_WEBHOOK_SECRET.forAccount(name).read(optional));
    }
}
