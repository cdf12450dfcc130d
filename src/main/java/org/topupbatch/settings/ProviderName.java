package org.topupbatch.settings;

import java.net.URI;

/**
 * The provider as a report names it ({@code provider} in summary.json): the accounts, in the order of
 * {@link AccountList}, joined by commas. A named account shows its name ({@code main,dfz}); the unnamed
 * account of topup.base-url shows {@code sandbox} when the embedded sandbox serves the run, otherwise
 * the host of its address.
 */
public final class ProviderName {

    public static final String SANDBOX = "sandbox";

    private ProviderName() {
    }

    public static String of(Settings settings) {
        return String.join(",", AccountList.of(settings).stream().map(ProviderName::of).toList());
    }

    private static String of(ProviderAccount account) {
        if (account.name() != null) {
            return account.name();
        }
        if (account.baseUrl() == null) {
            return SANDBOX; // no address: the embedded sandbox serves the run
        }
        String host = URI.create(account.baseUrl()).getHost();
        return host == null ? account.baseUrl() : host;
    }
}
