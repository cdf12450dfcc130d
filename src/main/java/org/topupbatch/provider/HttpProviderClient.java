package org.topupbatch.provider;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's operations as typed Java calls, each one request through the provider route
 * ({@code direct:provider}, routes/provider.yaml), which signs it, passes the rate budget and
 * posts it with Camel's http component. Failures are {@link ProviderException}s.
 *
 * <p>Thread-safe; share one instance.
 */
public final class HttpProviderClient implements ProviderClient, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpProviderClient.class);
    static final String PROVIDER_ROUTE = "direct:provider";
    /** The code of a call the configured dialect has no operation for. */
    public static final String NOT_IN_DIALECT = "NOT_IN_DIALECT";

    /** Floats as BigDecimal so that "10000.0" is checked exactly, never through a double. */
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final ProviderEndpoint endpoint;
    private final ProducerTemplate template;
    private final AutoCloseable owned;
    private final AtomicBoolean checkOrderSupported = new AtomicBoolean(true);
    /** With several accounts, the account this client calls (see {@link ProviderExchange#ACCOUNT}); else null. */
    private final String account;

    /** A client of the provider route in {@code camel} (its beans bound by {@link ProviderRouteConfiguration}). */
    public HttpProviderClient(CamelContext camel, ProviderEndpoint endpoint) {
        this(camel, endpoint, null, null);
    }

    /** A client of one of several accounts, through the same provider route as the others. */
    public HttpProviderClient(CamelContext camel, ProviderEndpoint endpoint, String account) {
        this(camel, endpoint, null, account);
    }

    private HttpProviderClient(CamelContext camel, ProviderEndpoint endpoint, AutoCloseable owned, String account) {
        this.account = account;
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.template = Objects.requireNonNull(camel, "camel").createProducerTemplate();
        this.owned = owned;
        this.checkOrderSupported.set(endpoint.dialect().supports(CHECK_ORDER));
    }

    /**
     * A client with a Camel of its own that runs only the provider route, for tools and tests that
     * talk to a provider without the product around them. {@link #close()} stops it.
     */
    public static HttpProviderClient standalone(ProviderEndpoint endpoint, RequestGate gate) {
        DefaultCamelContext camel = new DefaultCamelContext();
        ProviderRouteConfiguration beans = new ProviderRouteConfiguration(() -> endpoint, () -> gate);
        try {
            // the same binding a run's Camel Main does: the @BindToRegistry methods, then configure
            PluginHelper.getBeanPostProcessor(camel).postProcessBeforeInitialization(beans, "providerRoute");
            beans.configure(camel);
            PluginHelper.getRoutesLoader(camel).loadRoutes(
                    PluginHelper.getResourceLoader(camel).resolveResource("classpath:routes/provider.yaml"));
            camel.start();
        } catch (Exception e) {
            camel.stop();
            beans.close();
            throw new IllegalStateException("cannot start the provider route: " + e.getMessage(), e);
        }
        return new HttpProviderClient(camel, endpoint, () -> {
            camel.close();
            beans.close();
        }, null);
    }

    public ProviderEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public Balance checkBalance() {
        return call(ProviderRequest.balance());
    }

    @Override
    public List<Product> priceList(String category, String brand) {
        return call(ProviderRequest.priceList(category, brand));
    }

    @Override
    public Order createOrder(OrderRequest request) {
        return call(ProviderRequest.createOrder(request));
    }

    @Override
    public OrderHistoryPage orderHistory(HistoryQuery query) {
        return call(ProviderRequest.orderHistory(query));
    }

    @Override
    public Profile profile() {
        return call(ProviderRequest.profile());
    }

    @Override
    public Optional<Order> checkOrder(String refId) {
        if (!checkOrderSupported.get()) {
            return Optional.empty();
        }
        Optional<Order> order = call(ProviderRequest.checkOrder(refId));
        if (order.isEmpty() && checkOrderSupported.compareAndSet(true, false)) {
            LOG.info("provider has no check-order endpoint; order history is used from now on");
        }
        return order;
    }

    @Override
    public Dialect dialect() {
        return endpoint.dialect();
    }

    @Override
    public boolean checkOrderSupported() {
        return checkOrderSupported.get();
    }

    @Override
    public void close() {
        try {
            template.close();
            if (owned != null) {
                owned.close();
            }
        } catch (Exception e) {
            LOG.debug("closing the provider client failed", e);
        }
    }

    @Override
    public String toString() {
        return "HttpProviderClient[" + (account == null ? "" : account + " ") + endpoint.baseUrl() + "]";
    }

    /** One request through the provider route: its typed answer, or the ProviderException it meant. */
    @SuppressWarnings("unchecked")
    private <T> T call(ProviderRequest request) {
        if (!endpoint.dialect().supports(request.operation())) {
            // never sent, no slot spent: the provider has no such operation in this dialect
            throw new ProviderException(request.operation(), NOT_IN_DIALECT, 0, false,
                    "the " + endpoint.dialect().name() + " dialect has no " + request.operation(), null, null);
        }
        Exchange exchange = template.send(PROVIDER_ROUTE, ex -> {
            ex.getIn().setBody(request);
            if (account != null) {
                ex.setProperty(ProviderExchange.ACCOUNT, account);
            }
        });
        Exception failure = exchange.getException();
        if (failure != null) {
            for (Throwable t = failure; t != null; t = t.getCause()) {
                if (t instanceof ProviderException pe) {
                    throw pe;
                }
            }
            // Not from the route's own steps (the route is not running, say): for create-order we
            // cannot rule out that it was sent.
            throw TransportFailures.classify(request.operation(), failure);
        }
        return (T) exchange.getMessage().getBody();
    }

    /** One HTTP answer as read off the wire. */
    record HttpAnswer(int status, String body, Long retryAfterSeconds) {
    }
}
