package org.topupbatch.notify;

import java.util.concurrent.TimeUnit;
import org.apache.camel.component.http.HttpComponent;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;

/**
 * The HTTP component callbacks are delivered with ({@code callback:https://...} in routes/notify.yaml):
 * Camel's own, on a connection pool whose resolver is {@link GuardedDnsResolver}, so the address checked
 * is the address connected to. A component of its own rather than an endpoint option: the pool belongs
 * to the component, so Camel never closes it when a callback's endpoint leaves the toD cache, and the
 * operator's notify endpoints (topup.notify.uris, which may be internal) keep the plain http component.
 */
public final class CallbackConnections {

    /** The component's name in the registry, the scheme of a callback's endpoint URI. */
    public static final String COMPONENT = "callback";

    private CallbackConnections() {
    }

    public static HttpComponent component(CallbackGuard guard) {
        return component(guard, SystemDefaultDnsResolver.INSTANCE);
    }

    /** With the name lookups of {@code dns}: the system's in the product, a stub in a test. */
    public static HttpComponent component(CallbackGuard guard, DnsResolver dns) {
        HttpComponent http = new HttpComponent();
        http.setClientConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                .setDnsResolver(new GuardedDnsResolver(guard, dns))
                // Camel's http component's own defaults (3 minutes each), which it cannot apply to a given pool
                .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(3, TimeUnit.MINUTES)
                        .setSocketTimeout(3, TimeUnit.MINUTES).build())
                .build());
        return http;
    }
}
