package org.topupbatch.provider;

import org.apache.camel.CamelContext;
import org.apache.camel.component.http.HttpComponent;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The one configured {@code http} component every request of routes/provider.yaml leaves through:
 * timeouts, a pool of connections checked before reuse, and none of HttpClient's own retries.
 */
public final class ProviderHttpComponent {

    private static final int MAX_CONNECTIONS = 64;

    private ProviderHttpComponent() {
    }

    /**
     * Configures Camel's http component for {@code endpoint}; returns the connection pool, which
     * the caller closes after Camel has stopped. (The route's beans are bound by the provider's
     * configuration class.)
     */
    public static PoolingHttpClientConnectionManager configure(CamelContext camel, ProviderEndpoint endpoint) {
        PoolingHttpClientConnectionManager pool = pool(endpoint);
        HttpComponent http = camel.getComponent("http", HttpComponent.class);
        http.setClientConnectionManager(pool);
        long connectMs = endpoint.connectTimeout().toMillis();
        long responseMs = endpoint.responseTimeout().toMillis();
        http.setConnectTimeout(connectMs);
        http.setConnectionRequestTimeout(connectMs);
        http.setResponseTimeout(responseMs);
        http.setSoTimeout(responseMs);
        // A retry must pass the rate budget again, and a create-order must never be sent twice
        // behind our back: HttpClient's own retries and redirects are off.
        http.setAutomaticRetriesDisabled(true);
        http.setRedirectHandlingDisabled(true);
        http.setCookieManagementDisabled(true);
        return pool;
    }

    private static PoolingHttpClientConnectionManager pool(ProviderEndpoint endpoint) {
        return PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(endpoint.connectTimeout()))
                        .setSocketTimeout(Timeout.of(endpoint.responseTimeout()))
                        // A pooled connection the server closed meanwhile would fail after we
                        // "sent" a create-order and turn it into an unknown outcome: check idle ones first.
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .build();
    }
}
