package org.topupbatch.provider;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

/**
 * What routes/provider.yaml calls, bound by name (rateBudget, providerSigner, providerEndpoint,
 * providerAnswers), and the one configured {@code http} component its requests leave through. The
 * product's run and a standalone client ({@link HttpProviderClient#standalone}) both bind them here.
 *
 * <p>With several accounts each call names its account ({@link ProviderExchange#ACCOUNT}), and each
 * step takes that account's address, credentials, dialect and rate budget: one route, one http
 * component, one budget per account. A call without the property is the single account's.
 */
public final class ProviderRouteConfiguration implements CamelConfiguration, AutoCloseable {

    /** The key the single account's parts are kept under. */
    private static final String SINGLE = "";

    private final Function<String, ProviderEndpoint> endpoints;
    private final Function<String, RequestGate> gates;
    private final Function<String, BalanceSeen> balances;
    private final Map<String, RequestSigning> signing = new ConcurrentHashMap<>();
    private final Map<String, ProviderAnswers> answers = new ConcurrentHashMap<>();
    private PoolingHttpClientConnectionManager pool;

    /** Suppliers, so that the embedded sandbox and the journal are started by whoever needs them first. */
    public ProviderRouteConfiguration(Supplier<ProviderEndpoint> endpoint, Supplier<RequestGate> gate) {
        this(endpoint, gate, new BalanceSeen(java.time.Clock.systemUTC()));
    }

    /** {@code balances} learns the balance of every answer that carries one (the dashboard shows it). */
    public ProviderRouteConfiguration(Supplier<ProviderEndpoint> endpoint, Supplier<RequestGate> gate, BalanceSeen balances) {
        this(account -> endpoint.get(), account -> gate.get(), account -> balances);
    }

    /**
     * Several accounts: each function is asked with the call's account name (null for a call that names
     * none, which then is the first account's).
     */
    public ProviderRouteConfiguration(Function<String, ProviderEndpoint> endpoints, Function<String, RequestGate> gates,
                                      Function<String, BalanceSeen> balances) {
        this.endpoints = endpoints;
        this.gates = gates;
        this.balances = balances;
    }

    @BindToRegistry("rateBudget")
    public RateBudgetStep rateBudget() {
        return RateBudgetStep.perExchange(exchange -> gates.apply(account(exchange)));
    }

    @BindToRegistry("providerSigner")
    public Steps providerSigner() {
        return new Steps();
    }

    @BindToRegistry("providerEndpoint")
    public Steps providerEndpoint() {
        return new Steps();
    }

    @BindToRegistry("providerAnswers")
    public Steps providerAnswers() {
        return new Steps();
    }

    /** The route's steps, each with the parts of the exchange's account. */
    public final class Steps {

        /** Signs the request body (see {@link RequestSigning#sign}). */
        public void sign(Exchange exchange) {
            String account = account(exchange);
            signing.computeIfAbsent(key(account), k -> {
                ProviderEndpoint endpoint = endpoints.apply(account);
                return new RequestSigning(endpoint.signer(), endpoint.dialect());
            }).sign(exchange);
        }

        /** Where the exchange's operation is posted. */
        public String operationUrl(Exchange exchange) {
            return endpoints.apply(account(exchange)).operationUrl(exchange.getProperty(ProviderExchange.OPERATION, String.class));
        }

        /** The typed answer (see {@link ProviderAnswers#read}). */
        public void read(Exchange exchange) {
            answers(exchange).read(exchange);
        }

        /** A request without an HTTP answer (see {@link ProviderAnswers#lost}). */
        public void lost(Exchange exchange) {
            answers(exchange).lost(exchange);
        }

        private ProviderAnswers answers(Exchange exchange) {
            String account = account(exchange);
            return answers.computeIfAbsent(key(account),
                    k -> new ProviderAnswers(balances.apply(account), endpoints.apply(account).dialect()));
        }
    }

    private static String account(Exchange exchange) {
        return exchange.getProperty(ProviderExchange.ACCOUNT, String.class);
    }

    private static String key(String account) {
        return account == null ? SINGLE : account;
    }

    /** Camel's http component, configured once for every provider call (the timeouts are the same for every account). */
    @Override
    public synchronized void configure(CamelContext camel) {
        if (pool == null) {
            pool = ProviderHttpComponent.configure(camel, endpoints.apply(null));
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
