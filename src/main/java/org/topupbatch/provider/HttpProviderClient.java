package org.topupbatch.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.http.HttpClientConfigurer;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The provider client over HTTP, through Camel's camel-http component (Apache HttpClient 5).
 *
 * <p>Every call is one POST of a JSON body to {@code {base}/v1/<operation>}, with explicit
 * connect and response timeouts, on a connection pool this client owns. Automatic retries and
 * redirects of HttpClient are switched off: a retry must pass the {@link RequestGate} again and a
 * create-order must never be sent twice behind our back. Status and body are read here
 * ({@code throwExceptionOnFailure=false}) and classified by {@link AnswerClassifier}.
 *
 * <p>Thread-safe; share one instance. {@link #close()} releases the pool.
 */
public final class HttpProviderClient implements ProviderClient, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpProviderClient.class);

    /** Floats as BigDecimal so that "10000.0" is checked exactly, never through a double. */
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private static final int MAX_CONNECTIONS = 64;

    private final ProviderEndpoint endpoint;
    private final RequestGate gate;
    private final ProducerTemplate template;
    private final PoolingHttpClientConnectionManager pool;
    private final CamelContext camel;
    /** Names this client's beans and endpoints in the shared CamelContext, so that close() finds only its own. */
    private final String id;
    private final String poolBean;
    private final String configurerBean;
    private final AtomicBoolean checkOrderSupported = new AtomicBoolean(true);

    public HttpProviderClient(CamelContext camel, ProviderEndpoint endpoint, RequestGate gate) {
        this.camel = java.util.Objects.requireNonNull(camel, "camel");
        this.endpoint = java.util.Objects.requireNonNull(endpoint, "endpoint");
        this.gate = java.util.Objects.requireNonNull(gate, "gate");
        Timeout connect = Timeout.of(endpoint.connectTimeout());
        Timeout response = Timeout.of(endpoint.responseTimeout());
        this.pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(connect)
                        .setSocketTimeout(response)
                        // A pooled connection the server closed meanwhile would fail after we
                        // "sent" a create-order and turn it into an unknown outcome: check idle ones first.
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .build();
        this.id = UUID.randomUUID().toString().replace("-", "");
        this.poolBean = "topupProviderPool-" + id;
        this.configurerBean = "topupProviderHttpConfigurer-" + id;
        HttpClientConfigurer configurer = builder -> builder
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement();
        camel.getRegistry().bind(poolBean, pool);
        camel.getRegistry().bind(configurerBean, configurer);
        this.template = camel.createProducerTemplate();
    }

    public ProviderEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public Balance checkBalance() {
        Map<String, Object> body = base(Signer.BALANCE);
        return read(CHECK_BALANCE, post(CHECK_BALANCE, body), AnswerReader::balance);
    }

    @Override
    public List<Product> priceList(String category, String brand) {
        Map<String, Object> body = base(Signer.PRICE_LIST);
        putIfPresent(body, "category", category);
        putIfPresent(body, "brand", brand);
        return read(PRICE_LIST, post(PRICE_LIST, body), AnswerReader::products);
    }

    @Override
    public Order createOrder(OrderRequest request) {
        java.util.Objects.requireNonNull(request, "request");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("api_key", endpoint.signer().apiKey());
        body.put("ref_id", request.refId());
        body.put("product_sku", request.productSku());
        body.put("customer_no", request.customerNo());
        putIfPresent(body, "customer_no_zone", request.customerNoZone());
        body.put("sign", endpoint.signer().sign(request.refId()));
        return read(CREATE_ORDER, post(CREATE_ORDER, body), data -> AnswerReader.order(data, request.refId()));
    }

    @Override
    public OrderHistoryPage orderHistory(HistoryQuery query) {
        HistoryQuery q = query == null ? HistoryQuery.all() : query;
        Map<String, Object> body = base(Signer.HISTORY);
        if (q.page() != null) {
            body.put("page", q.page());
        }
        if (q.limit() != null) {
            body.put("limit", q.limit());
        }
        if (q.status() != null) {
            body.put("status", q.status().wire());
        }
        if (q.startDate() != null) {
            body.put("start_date", q.startDate().format(DateTimeFormatter.ISO_LOCAL_DATE));
        }
        if (q.endDate() != null) {
            body.put("end_date", q.endDate().format(DateTimeFormatter.ISO_LOCAL_DATE));
        }
        putIfPresent(body, "product_sku", q.productSku());
        return read(ORDER_HISTORY, post(ORDER_HISTORY, body), AnswerReader::historyPage);
    }

    @Override
    public Profile profile() {
        return read(PROFILE, post(PROFILE, base(Signer.PROFILE)), AnswerReader::profile);
    }

    @Override
    public Optional<Order> checkOrder(String refId) {
        java.util.Objects.requireNonNull(refId, "refId");
        if (!checkOrderSupported.get()) {
            return Optional.empty();
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("api_key", endpoint.signer().apiKey());
        body.put("ref_id", refId);
        body.put("sign", endpoint.signer().sign(refId));
        HttpAnswer answer = post(CHECK_ORDER, body);
        if (AnswerClassifier.meansNoSuchEndpoint(answer)) {
            if (checkOrderSupported.compareAndSet(true, false)) {
                LOG.info("provider has no check-order endpoint (HTTP {}); order history is used from now on", answer.status());
            }
            return Optional.empty();
        }
        return Optional.of(read(CHECK_ORDER, answer, data -> AnswerReader.order(data, refId)));
    }

    @Override
    public boolean checkOrderSupported() {
        return checkOrderSupported.get();
    }

    @Override
    public void close() {
        try {
            template.close();
        } catch (Exception e) {
            LOG.debug("closing the producer template failed", e);
        }
        try {
            // Our endpoints hold our pool; a later client in the same context gets its own.
            for (org.apache.camel.Endpoint e : camel.getEndpoints()) {
                if (e.getEndpointUri().contains(id)) {
                    camel.removeEndpoint(e);
                }
            }
        } catch (Exception e) {
            LOG.debug("removing the provider endpoints failed", e);
        }
        camel.getRegistry().unbind(poolBean);
        camel.getRegistry().unbind(configurerBean);
        pool.close();
    }

    @Override
    public String toString() {
        return "HttpProviderClient[" + endpoint.baseUrl() + "]";
    }

    // ---- one request ----------------------------------------------------------------------

    private Map<String, Object> base(String signComponent) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("api_key", endpoint.signer().apiKey());
        body.put("sign", endpoint.signer().sign(signComponent));
        return body;
    }

    private static void putIfPresent(Map<String, Object> body, String field, String value) {
        if (value != null && !value.isBlank()) {
            body.put(field, value);
        }
    }

    private <T> T read(String operation, HttpAnswer answer, java.util.function.Function<JsonNode, T> reader) {
        JsonNode data = AnswerClassifier.dataOrThrow(operation, answer);
        try {
            return reader.apply(data);
        } catch (UnreadableAnswerException | ArithmeticException e) {
            throw AnswerClassifier.unreadable(operation, answer, e.getMessage(), e);
        }
    }

    /** Sends one request through the gate and returns status, body and Retry-After; transport failures throw. */
    private HttpAnswer post(String operation, Map<String, Object> body) {
        String json;
        try {
            json = JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the " + operation + " request", e);
        }
        RequestGate.Ticket ticket;
        try {
            ticket = gate.enter(operation);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // Nothing was sent: the caller may simply try again later.
            throw new ProviderException(operation, ProviderException.INTERRUPTED, 0, false, "interrupted before sending", null, e);
        }
        int status = 0;
        long started = System.nanoTime();
        try {
            Exchange exchange = template.send(uri(operation), ex -> {
                ex.getIn().setBody(json);
                ex.getIn().setHeader(Exchange.CONTENT_TYPE, "application/json");
                ex.getIn().setHeader("Accept", "application/json");
                ex.setProperty(Exchange.CHARSET_NAME, "UTF-8");
            });
            Exception failure = exchange.getException();
            if (failure != null) {
                throw TransportFailures.classify(operation, failure);
            }
            Integer code = exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
            status = code == null ? 0 : code;
            String text = exchange.getMessage().getBody(String.class);
            Long retryAfter = RetryAfter.seconds(exchange.getMessage().getHeader("Retry-After", String.class));
            if (LOG.isDebugEnabled()) {
                LOG.debug("provider {} -> HTTP {} in {} ms", operation, status, (System.nanoTime() - started) / 1_000_000);
            }
            if (status == 0) {
                throw AnswerClassifier.unreadable(operation, new HttpAnswer(0, text, null), "no HTTP status", null);
            }
            return new HttpAnswer(status, text, retryAfter);
        } finally {
            ticket.completed(status);
        }
    }

    private String uri(String operation) {
        long connectMs = endpoint.connectTimeout().toMillis();
        long responseMs = endpoint.responseTimeout().toMillis();
        return endpoint.operationUrl(operation)
                + "?httpMethod=POST"
                + "&throwExceptionOnFailure=false"
                + "&connectTimeout=" + connectMs
                + "&connectionRequestTimeout=" + connectMs
                + "&responseTimeout=" + responseMs
                + "&soTimeout=" + responseMs
                + "&clientConnectionManager=#" + poolBean
                + "&httpClientConfigurer=#" + configurerBean;
    }

    /** One HTTP answer as read off the wire. */
    record HttpAnswer(int status, String body, Long retryAfterSeconds) {
    }
}
