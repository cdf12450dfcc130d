package org.topupbatch.observe;

import java.net.URI;
import org.topupbatch.provider.BalanceSeen;
import org.topupbatch.provider.RateBudget;

/**
 * One account of topup.providers as the dashboard and the metrics show it (docs/accounts-and-dialects.md#several-accounts): its name, how its API is spoken and where, its balance as its latest answer carried it,
 * and its own rate budget. Never its credentials.
 *
 * @param host the host (and port) of its base URL: where it is, without a path or user part
 */
public record ObservedAccount(String name, String dialect, String host, BalanceSeen balances, RateBudget budget) {

    /** The host and port of {@code baseUrl}, or the address as given when it has none. */
    public static String hostOf(String baseUrl) {
        try {
            URI uri = URI.create(baseUrl);
            if (uri.getHost() != null) {
                return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            }
        } catch (IllegalArgumentException notAUri) {
            // the settings checked it; shown as given rather than not at all
        }
        return baseUrl;
    }
}
