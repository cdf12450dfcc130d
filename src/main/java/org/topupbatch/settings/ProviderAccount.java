package org.topupbatch.settings;

/**
 * One named provider account of {@code topup.providers} (docs/accounts-and-dialects.md#several-accounts): how its API is
 * spelt, where it is, its credentials and its rate.
 *
 * @param name          the account's name in topup.providers (lower-case letters, digits, '-')
 * @param dialect       topup or digiflazz (as topup.dialect)
 * @param baseUrl       http(s) address without a trailing slash; {@code /v1/...} is appended
 * @param apiKey        the API key (for digiflazz the username)
 * @param apiSecret     the secret (for digiflazz the API key); never shown
 * @param rateLimit     requests per minute; 0 = from the provider's profile or tier
 * @param webhookSecret the provider's webhook secret for this account, or null; never shown
 */
public record ProviderAccount(String name, String dialect, String baseUrl, String apiKey, String apiSecret,
                              int rateLimit, String webhookSecret) {

    /** The secrets are left out: this is what logs and messages may show of an account. */
    @Override
    public String toString() {
        return "ProviderAccount[name=" + name + ", dialect=" + dialect + ", baseUrl=" + baseUrl + ", apiKey=" + apiKey
                + ", rateLimit=" + (rateLimit == 0 ? "from the provider" : rateLimit + "/min")
                + ", webhookSecret=" + (webhookSecret == null ? "(none)" : "(set)") + "]";
    }
}
