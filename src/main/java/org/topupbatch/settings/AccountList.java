package org.topupbatch.settings;

import java.util.List;

/**
 * Every account a run orders at, as one list (docs/accounts-and-dialects.md#several-accounts): the
 * accounts of {@code topup.providers}, or else the one account that topup.base-url, topup.dialect,
 * topup.api-key, topup.api-secret, topup.rate-limit and topup.webhook.secret make. That one has no
 * name ({@code null}), so that what it journals reads as it always did; its address is null when the
 * embedded sandbox serves the run (started only when the account is first used).
 *
 * <p>What differs between one account and several then falls out of the list: an account with a name
 * or the unnamed one, its own dialect. Nothing asks "several accounts or not" up front.
 */
public final class AccountList {

    private AccountList() {
    }

    public static List<ProviderAccount> of(Settings settings) {
        ProviderSettings provider = settings.provider();
        if (!provider.accounts().isEmpty()) {
            return provider.accounts();
        }
        return List.of(new ProviderAccount(null, provider.dialect(), provider.baseUrl(), provider.apiKey(),
                provider.apiSecret(), provider.rateLimit(), settings.webhook().secret()));
    }

    /** The names of the accounts, in order; null for the unnamed one. */
    public static List<String> names(Settings settings) {
        return of(settings).stream().map(ProviderAccount::name).collect(java.util.stream.Collectors.toList());
    }

    /**
     * Whether {@code account} can be reconciled with the provider (docs/reconcile.md#reconcile-with-the-provider):
     * by its order history (the topup dialect keeps one), or, for a named account without one, by a
     * status check of each of the journal's orders. The unnamed account without a history cannot be.
     */
    public static boolean reconcilable(ProviderAccount account) {
        return account.name() != null || "topup".equals(account.dialect());
    }
}
