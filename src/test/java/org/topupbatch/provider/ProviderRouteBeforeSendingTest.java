package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * routes/provider.yaml is the one place a request is throttled, signed and sent; a caller that must
 * commit something right before its request leaves (submit: ACCEPTED -> SENDING) names a route for
 * it. That step runs after the throttle and before the request, and when it says "do not send"
 * nothing reaches the provider and the reservation is given back.
 */
class ProviderRouteBeforeSendingTest {

    private static final String ORDER_OK = "{\"success\":true,\"message\":\"OK\",\"data\":{\"ref_id\":\"R-1\","
            + "\"product_sku\":\"ML86\",\"customer_no\":\"12345678\",\"status\":\"success\",\"serial_number\":\"SN\","
            + "\"price\":20000,\"balance_before\":\"100000\",\"balance_after\":80000.0,\"message\":\"m\"}}";

    private final List<String> steps = new CopyOnWriteArrayList<>();
    private CamelContext camel;
    private StubProvider stub;
    private AutoCloseable pool;

    @BeforeEach
    void start() throws Exception {
        stub = new StubProvider();
        camel = new DefaultCamelContext();
        ProviderEndpoint endpoint = new ProviderEndpoint(stub.baseUrl(), new Signer("RSL-7F3A9C21", "s3cr3t"),
                Duration.ofSeconds(2), Duration.ofSeconds(5));
        RequestGate gate = operation -> {
            steps.add("throttle " + operation);
            return status -> steps.add("complete " + status);
        };
        ProviderRouteConfiguration beans = new ProviderRouteConfiguration(() -> endpoint, () -> gate);
        PluginHelper.getBeanPostProcessor(camel).postProcessBeforeInitialization(beans, "providerRoute");
        beans.configure(camel);
        pool = beans;
        PluginHelper.getRoutesLoader(camel).loadRoutes(
                PluginHelper.getResourceLoader(camel).resolveResource("classpath:routes/provider.yaml"));
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:go").process(e -> steps.add("before sending, " + stub.received.size() + " sent"));
                from("direct:no-go").process(e -> {
                    steps.add("before sending: no");
                    e.setProperty(ProviderExchange.GO_AHEAD, false);
                });
            }
        });
        camel.start();
    }

    @AfterEach
    void stop() throws Exception {
        camel.stop();
        pool.close();
        stub.close();
    }

    @Test
    void the_step_before_sending_runs_after_the_throttle_and_before_the_request() {
        stub.answer(ProviderClient.CREATE_ORDER, StubProvider.Canned.json(200, ORDER_OK));
        Exchange done = send("direct:go");
        assertThat(done.getException()).isNull();
        assertThat(done.getMessage().getBody()).isInstanceOf(Order.class);
        assertThat(stub.received).hasSize(1);
        assertThat(steps).containsExactly("throttle create-order", "before sending, 0 sent", "complete 200");
    }

    @Test
    void a_request_its_caller_stops_before_sending_is_not_sent_and_gives_its_reservation_back() {
        Exchange done = send("direct:no-go");
        assertThat(done.getException()).isNull();
        assertThat(stub.received).isEmpty();
        assertThat(done.getMessage().getBody()).isNotInstanceOf(Order.class);
        assertThat(steps).containsExactly("throttle create-order", "before sending: no", "complete 0");
    }

    @Test
    void a_failing_step_before_sending_reaches_the_caller_and_still_gives_the_reservation_back() throws Exception {
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:fails").errorHandler(noErrorHandler()).process(e -> {
                    throw new IllegalStateException("journal down");
                });
            }
        });
        Exchange done = send("direct:fails");
        assertThat(done.getException()).isInstanceOf(IllegalStateException.class).hasMessage("journal down");
        assertThat(stub.received).isEmpty();
        assertThat(steps).containsExactly("throttle create-order", "complete 0");
    }

    private Exchange send(String beforeSending) {
        return camel.createProducerTemplate().send("direct:provider", e -> {
            e.getIn().setBody(ProviderRequest.createOrder(new OrderRequest("R-1", "ML86", "12345678", "")));
            e.setProperty(ProviderExchange.BEFORE_SENDING, beforeSending);
        });
    }
}
