package org.topupbatch.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.provider.StubProvider.Canned;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Provider behaviours the sandbox does not produce, against a canned-answer stub: other error
 * shapes, lenient numbers and booleans, "processing", HTML gateway pages, slow answers, dropped
 * connections, a provider without check-order.
 */
class HttpProviderClientStubTest {

    private static final String SECRET = "s3cr3t-Kx9pQ2";
    private static final String ORDER_OK = "{\"success\":true,\"message\":\"OK\",\"data\":{\"ref_id\":\"R-1\","
            + "\"product_sku\":\"ML86\",\"customer_no\":\"12345678\",\"status\":\"%s\",\"serial_number\":null,"
            + "\"price\":%s,\"balance_before\":\"100000\",\"balance_after\":80000.0,\"message\":\"m\"}}";

    private CamelContext camel;
    private StubProvider stub;
    private HttpProviderClient client;
    private final List<String> gateLog = new CopyOnWriteArrayList<>();
    private final RequestGate recordingGate = operation -> {
        gateLog.add("enter " + operation);
        return status -> gateLog.add("done " + operation + " " + status);
    };

    @BeforeEach
    void start() throws Exception {
        camel = new DefaultCamelContext();
        camel.start();
        stub = new StubProvider();
        client = newClient(stub.baseUrl(), Duration.ofSeconds(5));
    }

    private HttpProviderClient newClient(String baseUrl, Duration responseTimeout) {
        ProviderEndpoint endpoint = new ProviderEndpoint(baseUrl, new Signer("RSL-7F3A9C21", SECRET),
                Duration.ofSeconds(2), responseTimeout);
        return HttpProviderClient.standalone(endpoint, recordingGate);
    }

    @AfterEach
    void stop() {
        client.close();
        stub.close();
        camel.stop();
    }

    private static OrderRequest order() {
        return new OrderRequest("R-1", "ML86", "12345678", "");
    }

    // ---- what we send ---------------------------------------------------------------------

    @Test
    void sendsExactlyTheInterfaceFieldsAndPassesTheGateOnce() throws Exception {
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(200, String.format(ORDER_OK, "success", 20000)));
        client.createOrder(order());
        JsonNode sent = new ObjectMapper().readTree(stub.received.get(0).body());
        assertThat(sent.fieldNames()).toIterable()
                .containsExactly("api_key", "ref_id", "product_sku", "customer_no", "sign");
        assertThat(sent.get("sign").asText()).isEqualTo(new Signer("RSL-7F3A9C21", SECRET).sign("R-1"));
        assertThat(gateLog).containsExactly("enter create-order", "done create-order 200");
    }

    // ---- error shapes ---------------------------------------------------------------------

    @Test
    void codeInTopLevelCodeField() {
        stub.answer(ProviderClient.CHECK_BALANCE, Canned.json(401, "{\"success\":false,\"code\":\"INVALID_SIGNATURE\",\"message\":\"bad\"}"));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.checkBalance());
        assertThat(e.code()).isEqualTo("INVALID_SIGNATURE");
        assertThat(e.httpStatus()).isEqualTo(401);
        assertThat(e.outcomeUnknown()).isFalse();
        assertThat(e.providerMessage()).isEqualTo("bad");
    }

    @Test
    void codeInsideData() {
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(402, "{\"success\":false,\"data\":{\"error_code\":\"INSUFFICIENT_BALANCE\"},\"message\":\"no money\"}"));
        assertThat(catchThrowableOfType(ProviderException.class, () -> client.createOrder(order())).code())
                .isEqualTo("INSUFFICIENT_BALANCE");
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(404, "{\"success\":false,\"data\":{\"code\":\"PRODUCT_NOT_FOUND\"}}"));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
        assertThat(e.code()).isEqualTo("PRODUCT_NOT_FOUND");
        assertThat(e.outcomeUnknown()).isFalse();
    }

    @Test
    void codeOnlyInMessage() {
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(409, "{\"success\":false,\"data\":null,\"message\":\"Error DUPLICATE_REF_ID: ref_id R-1 already used\"}"));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
        assertThat(e.code()).isEqualTo("DUPLICATE_REF_ID");
        assertThat(e.httpStatus()).isEqualTo(409);
        assertThat(e.outcomeUnknown()).isFalse();
    }

    @Test
    void anEchoedSignatureIsRedactedFromTheProviderMessage() {
        String sign = new Signer("RSL-7F3A9C21", SECRET).sign("balance");
        stub.answer(ProviderClient.CHECK_BALANCE, new Canned(400, "text/html",
                "<html>bad request: {\"api_key\":\"RSL-7F3A9C21\",\"sign\":\"" + sign + "\"}</html>", java.util.Map.of(), 0));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.checkBalance());
        assertThat(e.getMessage()).doesNotContain(sign).contains("<redacted>");
        assertThat(e.providerMessage()).doesNotContain(sign);
    }

    @Test
    void noCodeAnywhere() {
        stub.answer(ProviderClient.PROFILE, Canned.json(400, "{\"success\":false,\"message\":\"something went wrong\"}"));
        assertThat(catchThrowableOfType(ProviderException.class, () -> client.profile()).code()).isEqualTo(ProviderException.NO_CODE);
    }

    @Test
    void successFalseUnderHttp200IsAnError() {
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(200, "{\"success\":false,\"error_code\":\"PRODUCT_UNAVAILABLE\",\"message\":\"off\"}"));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
        assertThat(e.code()).isEqualTo("PRODUCT_UNAVAILABLE");
        assertThat(e.httpStatus()).isEqualTo(200);
        assertThat(e.outcomeUnknown()).isFalse();
    }

    @Test
    void retryAfterInSecondsOrAsDate() {
        stub.answer(ProviderClient.CHECK_BALANCE, Canned.json(429, "{\"success\":false,\"message\":\"RATE_LIMIT_EXCEEDED\"}")
                .withHeader("Retry-After", "17"));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.checkBalance());
        assertThat(e.code()).isEqualTo("RATE_LIMIT_EXCEEDED");
        assertThat(e.retryAfterSeconds()).isEqualTo(17L);
        assertThat(e.isRateLimited()).isTrue();

        String inAMinute = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME
                .format(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(60));
        stub.answer(ProviderClient.CHECK_BALANCE, Canned.json(429, "{\"success\":false}").withHeader("Retry-After", inAMinute));
        assertThat(catchThrowableOfType(ProviderException.class, () -> client.checkBalance()).retryAfterSeconds())
                .isBetween(55L, 60L);
    }

    // ---- lenient reading ------------------------------------------------------------------

    @Test
    void stringNumbersZeroFractionsAndProcessing() {
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(200, String.format(ORDER_OK, "processing", "\"20000\"")));
        Order o = client.createOrder(order());
        assertThat(o.status()).isEqualTo(OrderStatus.PENDING);
        assertThat(o.price()).isEqualTo(20000L);
        assertThat(o.balanceBefore()).isEqualTo(100000L);
        assertThat(o.balanceAfter()).isEqualTo(80000L);
        assertThat(o.serialNumber()).isNull();
    }

    @Test
    void fractionalAmountIsUnreadableAndUnknownForCreateOrder() {
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(200, String.format(ORDER_OK, "success", "20000.5")));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
        assertThat(e.code()).isEqualTo(ProviderException.UNREADABLE_ANSWER);
        assertThat(e.outcomeUnknown()).isTrue();
    }

    @Test
    void unknownStatusWordIsUnreadable() {
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(200, String.format(ORDER_OK, "weird", 1)));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
        assertThat(e.code()).isEqualTo(ProviderException.UNREADABLE_ANSWER);
        assertThat(e.outcomeUnknown()).isTrue();
    }

    @Test
    void missingDataOrNotJsonUnder200IsUnknownForCreateOrderOnly() {
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(200, "{\"success\":true,\"message\":\"OK\"}"));
        assertThat(catchThrowableOfType(ProviderException.class, () -> client.createOrder(order())).outcomeUnknown()).isTrue();
        stub.answer(ProviderClient.CREATE_ORDER, new Canned(200, "text/plain", "OK", java.util.Map.of(), 0));
        assertThat(catchThrowableOfType(ProviderException.class, () -> client.createOrder(order())).outcomeUnknown()).isTrue();
        stub.answer(ProviderClient.CHECK_BALANCE, new Canned(200, "text/plain", "OK", java.util.Map.of(), 0));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.checkBalance());
        assertThat(e.code()).isEqualTo(ProviderException.UNREADABLE_ANSWER);
        assertThat(e.outcomeUnknown()).isFalse();
    }

    @Test
    void priceListWithStringBooleansAndNumbers() {
        stub.answer(ProviderClient.PRICE_LIST, Canned.json(200, "{\"success\":true,\"data\":["
                + "{\"product_sku\":\"A\",\"product_name\":\"a\",\"brand\":\"B\",\"category\":\"games\",\"price\":\"1000\",\"selling_price\":1100.00,\"status\":\"true\"},"
                + "{\"product_sku\":\"C\",\"price\":2000,\"selling_price\":2100,\"status\":0}]}"));
        List<Product> products = client.priceList("games", null);
        assertThat(products).extracting(Product::sku, Product::price, Product::sellingPrice, Product::available)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("A", 1000L, 1100L, true),
                        org.assertj.core.groups.Tuple.tuple("C", 2000L, 2100L, false));
        assertThat(products.get(1).description()).isNull();
    }

    @Test
    void historyTimestampsWithAndWithoutZone() {
        stub.answer(ProviderClient.ORDER_HISTORY, Canned.json(200, "{\"success\":true,\"data\":{\"orders\":["
                + "{\"ref_id\":\"R-1\",\"status\":\"success\",\"price\":\"1000\",\"created_at\":\"2026-11-21T10:00:00Z\"},"
                + "{\"ref_id\":\"R-2\",\"status\":\"PENDING\",\"created_at\":\"2026-11-21 10:00:00\"},"
                + "{\"ref_id\":\"R-3\",\"status\":\"gagal\",\"created_at\":\"2026-11-21T17:00:00+07:00\"}],"
                + "\"pagination\":{\"page\":\"1\",\"limit\":20,\"total\":3,\"total_pages\":1.0}}}"));
        OrderHistoryPage page = client.orderHistory(HistoryQuery.all());
        Instant ten = Instant.parse("2026-11-21T10:00:00Z");
        assertThat(page.orders()).extracting(OrderListEntry::createdAt).containsOnly(ten);
        assertThat(page.orders()).extracting(OrderListEntry::status)
                .containsExactly(OrderStatus.SUCCESS, OrderStatus.PENDING, OrderStatus.FAILED);
        assertThat(page.pagination()).isEqualTo(new Pagination(1, 20, 3, 1));
    }

    // ---- gateway pages, timeouts, dropped connections ------------------------------------

    @Test
    void htmlBadGatewayIsUnknownForCreateOrderOnly() {
        Canned html = new Canned(502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>", java.util.Map.of(), 0);
        stub.answer(ProviderClient.CREATE_ORDER, html);
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
        assertThat(e.httpStatus()).isEqualTo(502);
        assertThat(e.code()).isEqualTo(ProviderException.NO_CODE);
        assertThat(e.outcomeUnknown()).isTrue();
        assertThat(e.providerMessage()).contains("502 Bad Gateway");

        stub.answer(ProviderClient.CHECK_BALANCE, html);
        assertThat(catchThrowableOfType(ProviderException.class, () -> client.checkBalance()).outcomeUnknown()).isFalse();
    }

    @Test
    void slowAnswerTimesOut() {
        client.close();
        client = newClient(stub.baseUrl(), Duration.ofMillis(300));
        stub.answer(ProviderClient.CREATE_ORDER, Canned.json(200, String.format(ORDER_OK, "success", 1)).delayed(2000));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
        assertThat(e.code()).isEqualTo(ProviderException.TIMEOUT);
        assertThat(e.httpStatus()).isZero();
        assertThat(e.outcomeUnknown()).isTrue();
        assertThat(gateLog).containsExactly("enter create-order", "done create-order 0");

        stub.answer(ProviderClient.CHECK_BALANCE, Canned.json(200, "{}").delayed(2000));
        ProviderException b = catchThrowableOfType(ProviderException.class, () -> client.checkBalance());
        assertThat(b.code()).isEqualTo(ProviderException.TIMEOUT);
        assertThat(b.outcomeUnknown()).isFalse();
    }

    @Test
    void connectionRefusedMeansNothingWasSent() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        client.close();
        client = newClient("http://127.0.0.1:" + port, Duration.ofSeconds(2));
        ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
        assertThat(e.code()).isEqualTo(ProviderException.CONNECTION_FAILED);
        assertThat(e.outcomeUnknown()).isFalse();
        assertThat(e.getMessage()).doesNotContain(SECRET);
    }

    @Test
    void connectionClosedAfterTheRequestIsUnknownForCreateOrder() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread swallower = new Thread(() -> {
                while (!s.isClosed()) {
                    try (Socket c = s.accept(); InputStream in = c.getInputStream()) {
                        in.read(new byte[8192]); // read the request, then hang up without a word
                    } catch (Exception ignored) {
                        return;
                    }
                }
            });
            swallower.setDaemon(true);
            swallower.start();
            client.close();
            client = newClient("http://127.0.0.1:" + s.getLocalPort(), Duration.ofSeconds(2));
            ProviderException e = catchThrowableOfType(ProviderException.class, () -> client.createOrder(order()));
            assertThat(e.code()).isEqualTo(ProviderException.CONNECTION_LOST);
            assertThat(e.outcomeUnknown()).isTrue();
            ProviderException b = catchThrowableOfType(ProviderException.class, () -> client.checkBalance());
            assertThat(b.code()).isEqualTo(ProviderException.CONNECTION_LOST);
            assertThat(b.outcomeUnknown()).isFalse();
        }
    }

    @Test
    void aClosedClientLeavesNothingBehindAndANewOneWorks() {
        stub.answer(ProviderClient.CHECK_BALANCE, Canned.json(200, "{\"success\":true,\"data\":{\"balance\":5,\"currency\":\"IDR\"}}"));
        assertThat(client.checkBalance().balance()).isEqualTo(5L);
        client.close();
        client = newClient(stub.baseUrl(), Duration.ofSeconds(5));
        assertThat(client.checkBalance().balance()).isEqualTo(5L);
        assertThat(gateLog).containsExactly("enter check-balance", "done check-balance 200",
                "enter check-balance", "done check-balance 200");
    }

    // ---- check-order fallback -------------------------------------------------------------

    @Test
    void checkOrderMissingEndpointIsRememberedAndNeverAskedAgain() {
        stub.answer(ProviderClient.CHECK_ORDER, new Canned(404, "text/html", "<h1>Not Found</h1>", java.util.Map.of(), 0));
        assertThat(client.checkOrderSupported()).isTrue();
        assertThat(client.checkOrder("R-1")).isEmpty();
        assertThat(client.checkOrderSupported()).isFalse();
        assertThat(client.checkOrder("R-2")).isEmpty();
        assertThat(stub.count(ProviderClient.CHECK_ORDER)).isEqualTo(1);
    }

    @Test
    void checkOrderNotFoundIsAnErrorNotAMissingEndpoint() {
        stub.answer(ProviderClient.CHECK_ORDER, Canned.json(404, "{\"success\":false,\"data\":null,\"message\":\"Order not found\",\"error_code\":\"ORDER_NOT_FOUND\"}"));
        assertThatThrownBy(() -> client.checkOrder("R-1")).isInstanceOf(ProviderException.class)
                .extracting(e -> ((ProviderException) e).code()).isEqualTo("ORDER_NOT_FOUND");
        assertThat(client.checkOrderSupported()).isTrue();
    }

    @Test
    void checkOrderReadsTheOrder() {
        stub.answer(ProviderClient.CHECK_ORDER, Canned.json(200, String.format(ORDER_OK, "success", 20000)));
        Optional<Order> o = client.checkOrder("R-1");
        assertThat(o).get().extracting(Order::status).isEqualTo(OrderStatus.SUCCESS);
    }

    // ---- the provider's documented dialect (docs/provider.md) ------------------------------

    @Test
    void checkOrderSendsTheDocumentedBodyAndIgnoresTimestampAndUnknownFields() throws Exception {
        stub.answer(ProviderClient.CHECK_ORDER, Canned.json(200, "{\"success\":true,\"message\":\"OK\","
                + "\"timestamp\":\"2026-11-21T10:00:03.123+07:00\",\"request_id\":\"abc\",\"meta\":{\"v\":[1,2]},"
                + "\"data\":{\"ref_id\":\"R-1\",\"product_sku\":\"ML86\",\"customer_no\":\"12345678\","
                + "\"status\":\"processing\",\"serial_number\":null,\"price\":20000,\"balance_before\":100000,"
                + "\"balance_after\":80000,\"message\":\"m\",\"created_at\":\"2026-11-21T03:00:00Z\","
                + "\"operator\":{\"name\":\"x\"},\"timestamp\":\"2026-11-21T10:00:03Z\"}}"));
        Optional<Order> o = client.checkOrder("R-1");
        assertThat(o).get().extracting(Order::status).isEqualTo(OrderStatus.PENDING);
        assertThat(o.get().price()).isEqualTo(20000L);

        JsonNode sent = new ObjectMapper().readTree(stub.received.get(0).body());
        assertThat(stub.received.get(0).path()).isEqualTo("/v1/check-order");
        assertThat(sent.fieldNames()).toIterable().containsExactly("api_key", "ref_id", "sign");
        assertThat(sent.get("ref_id").asText()).isEqualTo("R-1");
        // known answer: md5("RSL-7F3A9C21" + "s3cr3t-Kx9pQ2" + "R-1"), lower-case hex
        assertThat(sent.get("sign").asText())
                .isEqualTo(org.apache.commons.codec.digest.DigestUtils.md5Hex("RSL-7F3A9C21s3cr3t-Kx9pQ2R-1"))
                .matches("[0-9a-f]{32}");
    }

    @Test
    void processingIsPendingInHistoryToo() {
        stub.answer(ProviderClient.ORDER_HISTORY, Canned.json(200, "{\"success\":true,\"message\":\"OK\","
                + "\"timestamp\":\"2026-11-21T10:00:03Z\",\"data\":{\"orders\":[{\"ref_id\":\"R-1\","
                + "\"product_sku\":\"GI60\",\"product_name\":\"x\",\"customer_no\":\"1\",\"status\":\"processing\","
                + "\"serial_number\":null,\"price\":1,\"created_at\":\"2026-11-21T03:00:00Z\",\"extra\":true}],"
                + "\"pagination\":{\"page\":1,\"limit\":20,\"total\":1,\"total_pages\":1}}}"));
        assertThat(client.orderHistory(HistoryQuery.all()).orders()).extracting(OrderListEntry::status)
                .containsExactly(OrderStatus.PENDING);
    }
}
