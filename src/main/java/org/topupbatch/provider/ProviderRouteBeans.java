package org.topupbatch.provider;

import org.apache.camel.CamelContext;
import org.apache.camel.component.http.HttpComponent;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * What routes/provider.yaml calls, bound by name (rateBudget, providerSigner, providerEndpoint,
 * providerAnswers), and the one configured {@code http} component its requests leave through.
 */
public final class ProviderRouteBeans {

    private static final int MAX_CONNECTIONS = 64;

    private ProviderRouteBeans() {
    }

    /**
     * Binds the route's beans and configures Camel's http component for {@code endpoint}; returns
     * the connection pool, which the caller closes after Camel has stopped.
     */
    public static PoolingHttpClientConnectionManager bind(CamelContext camel, ProviderEndpoint endpoint, RequestGate gate) {
        camel.getRegistry().bind("rateBudget", new RateBudgetStep(gate));
        camel.getRegistry().bind("providerSigner", new RequestSigning(endpoint.signer()));
        camel.getRegistry().bind("providerEndpoint", endpoint);
        camel.getRegistry().bind("providerAnswers", new ProviderAnswers());
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
