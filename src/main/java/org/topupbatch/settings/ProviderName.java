package org.topupbatch.settings;

import java.net.URI;

/**
 * The provider as a report names it ({@code provider} in summary.json): {@code sandbox} when the
 * embedded sandbox serves the run, otherwise the host of {@code topup.base-url}; with several accounts,
 * their names ({@code main,dfz}).
 */
public final class ProviderName {

    public static final String SANDBOX = "sandbox";

    private ProviderName() {
    }

    public static String of(Settings settings) {
        if (settings.severalAccounts()) {
            // several accounts: their names, in the order of topup.providers
            return String.join(",", settings.provider().accounts().stream().map(ProviderAccount::name).toList());
        }
        if (settings.provider().embeddedSandbox()) {
            return SANDBOX;
        }
        String host = URI.create(settings.provider().baseUrl()).getHost();
        return host == null ? settings.provider().baseUrl() : host;
    }
}
