package org.topupbatch.provider;

import java.util.function.Supplier;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

/**
 * What routes/provider.yaml calls, bound by name (rateBudget, providerSigner, providerEndpoint,
 * providerAnswers), and the one configured {@code http} component its requests leave through. The
 * product's run and a standalone client ({@link HttpProviderClient#standalone}) both bind them here.
 */
public final class ProviderRouteConfiguration implements CamelConfiguration, AutoCloseable {

    private final Supplier<ProviderEndpoint> endpoint;
    private final Supplier<RequestGate> gate;
    private final BalanceSeen balances;
    private PoolingHttpClientConnectionManager pool;

    /** Suppliers, so that the embedded sandbox and the journal are started by whoever needs them first. */
    public ProviderRouteConfiguration(Supplier<ProviderEndpoint> endpoint, Supplier<RequestGate> gate) {
        this(endpoint, gate, new BalanceSeen(java.time.Clock.systemUTC()));
    }

    /** {@code balances} learns the balance of every answer that carries one (the dashboard shows it). */
    public ProviderRouteConfiguration(Supplier<ProviderEndpoint> endpoint, Supplier<RequestGate> gate, BalanceSeen balances) {
        this.endpoint = endpoint;
        this.gate = gate;
        this.balances = balances;
    }

    @BindToRegistry("rateBudget")
    public RateBudgetStep rateBudget() {
        return new RateBudgetStep(gate.get());
    }

    @BindToRegistry("providerSigner")
    public RequestSigning providerSigner() {
        return new RequestSigning(endpoint.get().signer(), endpoint.get().dialect());
    }

    @BindToRegistry("providerEndpoint")
    public ProviderEndpoint providerEndpoint() {
        return endpoint.get();
    }

    @BindToRegistry("providerAnswers")
    public ProviderAnswers providerAnswers() {
        return new ProviderAnswers(balances, endpoint.get().dialect());
    }

    /** Camel's http component, configured once for every provider call. */
    @Override
    public synchronized void configure(CamelContext camel) {
        if (pool == null) {
            pool = ProviderHttpComponent.configure(camel, endpoint.get());
        }
    }

    /** The connections, after Camel has stopped. */
    @Override
    public synchronized void close() {
        if (pool != null) {
            pool.close();
            pool = null;
        }
    }
}
