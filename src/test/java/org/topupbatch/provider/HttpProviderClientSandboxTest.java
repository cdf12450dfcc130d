package org.topupbatch.provider;

import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LostAnswerMode;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxTier;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.topupbatch.testing.Poll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The client against the real sandbox provider over HTTP. */
class HttpProviderClientSandboxTest {

    private static final String KEY = "RSL-7F3A9C21";
    private static final String SECRET = "s3cr3t-Kx9pQ2";
    private static final AtomicInteger REF = new AtomicInteger();

    private CamelContext camel;
    private SandboxProvider sandbox;
    private HttpProviderClient client;

    @BeforeEach
    void start() {
        camel = new DefaultCamelContext();
        camel.start();
        sandbox = SandboxProvider.start(SandboxConfig.defaults()
                .setSettleDelay(DurationRange.of(Duration.ofMillis(100), Duration.ofMillis(300)))
                .setFailRate(0), 0);
        client = clientWith(KEY, SECRET);
    }

    @AfterEach
    void stop() {
        client.close();
        sandbox.close();
        camel.stop();
    }

    private HttpProviderClient clientWith(String key, String secret) {
        return HttpProviderClient.standalone(new ProviderEndpoint(sandbox.baseUrl(), new Signer(key, secret),
                Duration.ofSeconds(2), Duration.ofSeconds(5)), RequestGate.OPEN);
    }

    private static String ref() {
        return "IT-" + System.nanoTime() + "-" + REF.incrementAndGet();
    }

    private long priceOf(String sku) {
        return client.priceList(null, null).stream().filter(p -> p.sku().equals(sku)).findFirst().orElseThrow().price();
    }

    private Order awaitFinal(String refId) {
        return Poll.until("order " + refId + " settles", Duration.ofSeconds(10), () -> client.checkOrder(refId).orElseThrow(),
                o -> o.status().isFinal());
    }

    private ProviderException failure(Runnable call) {
        return catchThrowableOfType(ProviderException.class, call::run);
    }

    // ---- every operation ------------------------------------------------------------------

    @Test
    void checkBalanceAndProfile() {
        Balance b = client.checkBalance();
        assertThat(b.balance()).isEqualTo(sandbox.balance());
        assertThat(b.currency()).isEqualTo("IDR");
        assertThat(Tier.parse(b.tier())).contains(Tier.GOLD);

        Profile p = client.profile();
        assertThat(p.balance()).isEqualTo(b.balance());
        assertThat(Tier.parse(p.tier())).contains(Tier.GOLD);
        assertThat(p.apiUsage().limitPerMinute()).isEqualTo(300);
        assertThat(p.ipWhitelist()).contains("127.0.0.1");
        assertThat(p.joinedAt()).isBefore(Instant.now());
        assertThat(p.successRate()).isBetween(java.math.BigDecimal.ZERO, java.math.BigDecimal.valueOf(100));
    }

    @Test
    void priceListWithCategoryAndBrandFilters() {
        List<Product> all = client.priceList(null, null);
        assertThat(all).extracting(Product::sku).contains("ML86", "GI60", "TSEL10", "GP20K");
        assertThat(all).filteredOn(p -> p.sku().equals("FF2180")).extracting(Product::available).containsExactly(false);
        assertThat(all).filteredOn(p -> p.sku().equals("ML86")).extracting(Product::available).containsExactly(true);
        assertThat(all).allSatisfy(p -> assertThat(p.price()).isPositive());

        List<Product> pulsa = client.priceList("pulsa", null);
        assertThat(pulsa).isNotEmpty().allSatisfy(p -> assertThat(p.category()).isEqualTo("pulsa"));
        assertThat(pulsa.size()).isLessThan(all.size());

        List<Product> ml = client.priceList(null, "MOBILE LEGENDS");
        assertThat(ml).isNotEmpty().allSatisfy(p -> assertThat(p.brand()).isEqualTo("MOBILE LEGENDS"));

        assertThat(client.priceList("voucher", "MOBILE LEGENDS")).isEmpty();
    }

    @Test
    void instantOrderSucceedsAndIsVisibleEverywhere() {
        long before = client.checkBalance().balance();
        long price = priceOf("ML86");
        String refId = ref();
        Order o = client.createOrder(new OrderRequest(refId, "ML86", "12345678", "1234"));
        assertThat(o.refId()).isEqualTo(refId);
        assertThat(o.status()).isEqualTo(OrderStatus.SUCCESS);
        assertThat(o.serialNumber()).isNotBlank();
        assertThat(o.price()).isEqualTo(price);
        assertThat(o.balanceBefore()).isEqualTo(before);
        assertThat(o.balanceAfter()).isEqualTo(before - price);
        assertThat(client.checkBalance().balance()).isEqualTo(before - price);

        Order checked = client.checkOrder(refId).orElseThrow();
        assertThat(checked.status()).isEqualTo(OrderStatus.SUCCESS);
        assertThat(checked.serialNumber()).isEqualTo(o.serialNumber());

        assertThat(client.orderHistory(HistoryQuery.all()).orders()).extracting(OrderListEntry::refId).contains(refId);
    }

    @Test
    void instantOrderFailsAtCreationForACustomerEndingIn0000() {
        long before = client.checkBalance().balance();
        Order o = client.createOrder(new OrderRequest(ref(), "ML86", "12340000", "1234"));
        assertThat(o.status()).isEqualTo(OrderStatus.FAILED);
        assertThat(o.balanceAfter()).isEqualTo(o.balanceBefore());
        assertThat(client.checkBalance().balance()).isEqualTo(before);
    }

    @Test
    void pendingOrderSettlesToSuccess() throws Exception {
        long before = client.checkBalance().balance();
        long price = priceOf("GI60");
        String refId = ref();
        Order o = client.createOrder(new OrderRequest(refId, "GI60", "123456789", "asia"));
        assertThat(o.status()).isEqualTo(OrderStatus.PENDING);
        assertThat(o.serialNumber()).isNull();
        assertThat(o.balanceAfter()).isEqualTo(before - price);

        Order settled = awaitFinal(refId);
        assertThat(settled.status()).isEqualTo(OrderStatus.SUCCESS);
        assertThat(settled.serialNumber()).isNotBlank();
        assertThat(client.checkBalance().balance()).isEqualTo(before - price);
    }

    @Test
    void pendingOrderSettlesToFailedAndIsRefunded() throws Exception {
        long before = client.checkBalance().balance();
        long price = priceOf("GI60");
        String refId = ref();
        Order o = client.createOrder(new OrderRequest(refId, "GI60", "1234560000", "asia"));
        assertThat(o.status()).isEqualTo(OrderStatus.PENDING);
        assertThat(client.checkBalance().balance()).isEqualTo(before - price);

        assertThat(awaitFinal(refId).status()).isEqualTo(OrderStatus.FAILED);
        assertThat(client.checkBalance().balance()).isEqualTo(before);
        OrderHistoryPage failed = client.orderHistory(HistoryQuery.all().status(OrderStatus.FAILED));
        assertThat(failed.orders()).extracting(OrderListEntry::refId).contains(refId);
    }

    // ---- order history: paging and every filter -------------------------------------------

    @Test
    void historyPagingAndFilters() throws Exception {
        // two days of orders: yesterday's under a fixed clock, today's under a running clock set to noon
        // UTC today (the real clock could pass midnight between the orders and the day's query)
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate yesterday = today.minusDays(1);
        Instant todayNoon = today.atTime(12, 0).toInstant(ZoneOffset.UTC);
        sandbox.setClock(Clock.fixed(yesterday.atTime(12, 0).toInstant(ZoneOffset.UTC), ZoneOffset.UTC));
        String old1 = ref();
        client.createOrder(new OrderRequest(old1, "TSEL10", "081234567890", null));
        sandbox.setClock(Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), todayNoon)));
        String a = ref();
        String b = ref();
        String c = ref();
        String failed = ref();
        client.createOrder(new OrderRequest(a, "TSEL10", "081234567891", null));
        client.createOrder(new OrderRequest(b, "ML86", "12345678", "1234"));
        client.createOrder(new OrderRequest(c, "TSEL10", "081234567892", ""));
        client.createOrder(new OrderRequest(failed, "ML86", "12340000", "1234"));

        OrderHistoryPage all = client.orderHistory(HistoryQuery.all());
        assertThat(all.pagination().total()).isEqualTo(5);
        assertThat(all.pagination().page()).isEqualTo(1);
        assertThat(all.pagination().limit()).isEqualTo(20);
        // newest first
        assertThat(all.orders()).extracting(OrderListEntry::refId).containsExactly(failed, c, b, a, old1);
        assertThat(all.orders().get(0).createdAt()).isAfterOrEqualTo(todayNoon.truncatedTo(java.time.temporal.ChronoUnit.SECONDS))
                .isBefore(todayNoon.plus(Duration.ofMinutes(10)));
        assertThat(all.orders().get(0).productName()).isNotBlank();

        OrderHistoryPage page2 = client.orderHistory(HistoryQuery.all().page(2).limit(2));
        assertThat(page2.pagination()).isEqualTo(new Pagination(2, 2, 5, 3));
        assertThat(page2.orders()).extracting(OrderListEntry::refId).containsExactly(b, a);
        assertThat(client.orderHistory(HistoryQuery.all().page(3).limit(2)).orders())
                .extracting(OrderListEntry::refId).containsExactly(old1);

        assertThat(client.orderHistory(HistoryQuery.all().status(OrderStatus.FAILED)).orders())
                .extracting(OrderListEntry::refId).containsExactly(failed);
        assertThat(client.orderHistory(HistoryQuery.all().status(OrderStatus.SUCCESS)).pagination().total()).isEqualTo(4);
        assertThat(client.orderHistory(HistoryQuery.all().status(OrderStatus.PENDING)).orders()).isEmpty();

        assertThat(client.orderHistory(HistoryQuery.all().productSku("ML86")).orders())
                .extracting(OrderListEntry::refId).containsExactly(failed, b);

        assertThat(client.orderHistory(HistoryQuery.all().dates(yesterday, yesterday)).orders())
                .extracting(OrderListEntry::refId).containsExactly(old1);
        assertThat(client.orderHistory(HistoryQuery.all().dates(today, today)).pagination().total()).isEqualTo(4);
        assertThat(client.orderHistory(HistoryQuery.all().dates(yesterday, null)).pagination().total()).isEqualTo(5);
        assertThat(client.orderHistory(HistoryQuery.all().dates(null, yesterday)).orders())
                .extracting(OrderListEntry::refId).containsExactly(old1);

        assertThat(client.orderHistory(HistoryQuery.all().productSku("TSEL10").dates(today, today).limit(1)).pagination())
                .isEqualTo(new Pagination(1, 1, 2, 2));
    }

    // ---- every error code the sandbox produces --------------------------------------------

    @Test
    void wrongSecretIsInvalidSignature() {
        try (HttpProviderClient wrong = clientWith(KEY, "not-the-secret")) {
            ProviderException e = failure(wrong::checkBalance);
            assertThat(e.code()).isEqualTo("INVALID_SIGNATURE");
            assertThat(e.httpStatus()).isEqualTo(401);
            assertThat(e.outcomeUnknown()).isFalse();
            assertThat(e.getMessage()).doesNotContain("not-the-secret").doesNotContain(new Signer(KEY, "not-the-secret").sign("balance"));
        }
    }

    @Test
    void unknownKeyIsInvalidApiKey() {
        try (HttpProviderClient wrong = clientWith("RSL-NOBODY", SECRET)) {
            ProviderException e = failure(() -> wrong.createOrder(new OrderRequest(ref(), "ML86", "12345678", "1")));
            assertThat(e.code()).isEqualTo("INVALID_API_KEY");
            assertThat(e.httpStatus()).isEqualTo(401);
            assertThat(e.outcomeUnknown()).isFalse();
        }
    }

    @Test
    void orderRefusals() {
        assertRefused(new OrderRequest(ref(), "NOPE99", "12345678", "1"), "PRODUCT_NOT_FOUND", 404);
        assertRefused(new OrderRequest(ref(), "FF2180", "12345678", null), "PRODUCT_UNAVAILABLE", 422);
        assertRefused(new OrderRequest(ref(), "ML86", "12345678", null), "ZONE_REQUIRED", 400);
        assertRefused(new OrderRequest(ref(), "ML86", "12345678", ""), "ZONE_REQUIRED", 400);
        assertRefused(new OrderRequest(ref(), "ML86", "abc", "1234"), "INVALID_CUSTOMER_NO", 400);
        assertRefused(new OrderRequest(ref(), "TSEL10", "081712345678", null), "INVALID_CUSTOMER_NO", 400);
        assertRefused(new OrderRequest("bad ref id", "ML86", "12345678", "1234"), "INVALID_REF_ID", 400);
        assertRefused(new OrderRequest("R".repeat(51), "ML86", "12345678", "1234"), "INVALID_REF_ID", 400);
    }

    private void assertRefused(OrderRequest request, String code, int status) {
        ProviderException e = failure(() -> client.createOrder(request));
        assertThat(e.code()).as(request.toString()).isEqualTo(code);
        assertThat(e.httpStatus()).as(request.toString()).isEqualTo(status);
        assertThat(e.outcomeUnknown()).isFalse();
    }

    @Test
    void insufficientBalance() {
        sandbox.config().setBalance(1000);
        ProviderException e = failure(() -> client.createOrder(new OrderRequest(ref(), "ML86", "12345678", "1234")));
        assertThat(e.code()).isEqualTo("INSUFFICIENT_BALANCE");
        assertThat(e.httpStatus()).isEqualTo(402);
        assertThat(e.outcomeUnknown()).isFalse();
        assertThat(client.checkBalance().balance()).isEqualTo(1000);
    }

    @Test
    void duplicateRefIdMeansTheOrderExists() {
        String refId = ref();
        client.createOrder(new OrderRequest(refId, "ML86", "12345678", "1234"));
        long after = client.checkBalance().balance();
        ProviderException e = failure(() -> client.createOrder(new OrderRequest(refId, "ML86", "12345678", "1234")));
        assertThat(e.code()).isEqualTo("DUPLICATE_REF_ID");
        assertThat(e.httpStatus()).isEqualTo(409);
        assertThat(e.outcomeUnknown()).isFalse();
        assertThat(client.checkBalance().balance()).isEqualTo(after);
    }

    @Test
    void rateLimitCarriesRetryAfter() {
        sandbox.config().setTier(SandboxTier.BASIC);
        ProviderException limited = null;
        for (int i = 0; i < 70 && limited == null; i++) {
            try {
                client.checkBalance();
            } catch (ProviderException e) {
                limited = e;
            }
        }
        assertThat(limited).isNotNull();
        assertThat(limited.code()).isEqualTo("RATE_LIMIT_EXCEEDED");
        assertThat(limited.httpStatus()).isEqualTo(429);
        assertThat(limited.isRateLimited()).isTrue();
        assertThat(limited.retryAfterSeconds()).isNotNull().isBetween(1L, 60L);
        assertThat(limited.outcomeUnknown()).isFalse();
    }

    @Test
    void checkOrderOfAnUnknownRefIdIsOrderNotFound() {
        ProviderException e = failure(() -> client.checkOrder("NEVER-USED-1"));
        assertThat(e.code()).isEqualTo("ORDER_NOT_FOUND");
        assertThat(e.httpStatus()).isEqualTo(404);
        assertThat(client.checkOrderSupported()).isTrue();
    }

    // ---- lost answers and the check-order fallback ----------------------------------------

    @Test
    void droppedAnswerIsAnUnknownOutcomeAndTheOrderExists() {
        sandbox.config().setLostAnswerMode(LostAnswerMode.DROP).setLostAnswerRate(1.0);
        String refId = ref();
        ProviderException e = failure(() -> client.createOrder(new OrderRequest(refId, "ML86", "12345678", "1234")));
        assertThat(e.outcomeUnknown()).isTrue();
        assertThat(e.httpStatus()).isZero();
        assertThat(e.code()).isEqualTo(ProviderException.CONNECTION_LOST);

        sandbox.config().setLostAnswerRate(0);
        assertThat(client.checkOrder(refId)).get().extracting(Order::refId).isEqualTo(refId);
        assertThat(failure(() -> client.createOrder(new OrderRequest(refId, "ML86", "12345678", "1234"))).code())
                .isEqualTo("DUPLICATE_REF_ID");
    }

    @Test
    void gatewayTimeoutPageIsAnUnknownOutcome() {
        sandbox.config().setLostAnswerMode(LostAnswerMode.GATEWAY_TIMEOUT).setLostAnswerRate(1.0);
        String refId = ref();
        ProviderException e = failure(() -> client.createOrder(new OrderRequest(refId, "ML86", "12345678", "1234")));
        assertThat(e.outcomeUnknown()).isTrue();
        assertThat(e.httpStatus()).isEqualTo(504);

        sandbox.config().setLostAnswerRate(0);
        assertThat(client.checkOrder(refId)).isPresent();
    }

    @Test
    void injectedServerErrorIsUnknownForCreateOrderOnly() {
        sandbox.config().setErrorRate(1.0);
        ProviderException create = failure(() -> client.createOrder(new OrderRequest(ref(), "ML86", "12345678", "1234")));
        assertThat(create.httpStatus()).isEqualTo(500);
        assertThat(create.code()).isEqualTo("INTERNAL_ERROR");
        assertThat(create.outcomeUnknown()).isTrue();
        ProviderException balance = failure(client::checkBalance);
        assertThat(balance.httpStatus()).isEqualTo(500);
        assertThat(balance.outcomeUnknown()).isFalse();
    }

    @Test
    void checkOrderDisabledIsRememberedAsUnsupported() {
        String refId = ref();
        client.createOrder(new OrderRequest(refId, "ML86", "12345678", "1234"));
        sandbox.config().setCheckOrder(false);
        assertThat(client.checkOrder(refId)).isEmpty();
        assertThat(client.checkOrderSupported()).isFalse();
        long asked = sandbox.stats().requestsPerOperation().getOrDefault("check-order", 0L);
        sandbox.config().setCheckOrder(true);
        assertThat(client.checkOrder(refId)).isEmpty();
        assertThat(sandbox.stats().requestsPerOperation().getOrDefault("check-order", 0L)).isEqualTo(asked);
    }
}
