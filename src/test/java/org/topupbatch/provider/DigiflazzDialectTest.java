package org.topupbatch.provider;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Digiflazz dialect against its documentation (docs/digiflazz.md): the request shapes of the
 * Cek Saldo, Daftar Harga and Topup pages, and answers shaped like the pages' examples, with the
 * rc meanings of the response-code table.
 */
class DigiflazzDialectTest {

    private static final String USERNAME = "username";
    private static final String KEY = "dev-4f0c9b2e";
    private final Dialect dialect = Dialect.DIGIFLAZZ;
    private final Signer signer = new Signer(USERNAME, KEY);

    private static String md5(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    private static HttpProviderClient.HttpAnswer ok(String body) {
        return new HttpProviderClient.HttpAnswer(200, body, null);
    }

    @Test
    void operationsLiveWhereTheDocumentationPutsThem() {
        assertThat(ProviderEndpoint.of("https://api.digiflazz.com", signer).withDialect(dialect)
                .operationUrl(ProviderClient.CREATE_ORDER)).isEqualTo("https://api.digiflazz.com/v1/transaction");
        assertThat(dialect.path(ProviderClient.CHECK_BALANCE)).isEqualTo("/v1/cek-saldo");
        assertThat(dialect.path(ProviderClient.PRICE_LIST)).isEqualTo("/v1/price-list");
        assertThat(dialect.supports(ProviderClient.ORDER_HISTORY)).isFalse();
        assertThat(dialect.supports(ProviderClient.PROFILE)).isFalse();
        assertThat(dialect.supports(ProviderClient.CHECK_ORDER)).isFalse();
        assertThat(dialect.statusByResending()).isTrue();
        assertThat(dialect.resendWindow()).hasValueSatisfying(w -> assertThat(w.toDays()).isLessThan(90));
    }

    /** Topup page's example request: username, buyer_sku_code, customer_no, ref_id, sign = md5(username + key + ref_id). */
    @Test
    void topupRequestHasTheDocumentedFields() throws Exception {
        Map<String, Object> body = dialect.body(ProviderRequest.createOrder(
                new OrderRequest("some1d", "xld25", "087800001233", null, 26_000L)), signer);
        assertThat(body).containsOnlyKeys("username", "buyer_sku_code", "customer_no", "ref_id", "sign", "max_price");
        assertThat(body).containsEntry("username", USERNAME).containsEntry("buyer_sku_code", "xld25")
                .containsEntry("customer_no", "087800001233").containsEntry("ref_id", "some1d")
                .containsEntry("max_price", 26_000L)
                .containsEntry("sign", md5(USERNAME + KEY + "some1d"));
        // without a limit, none is sent
        assertThat(dialect.body(ProviderRequest.createOrder(new OrderRequest("some1d", "xld25", "087800001233", null)),
                signer)).doesNotContainKey("max_price");
    }

    @Test
    void aZoneGoesInsideTheNumberAsPlayersWriteIt() {
        assertThat(dialect.body(ProviderRequest.createOrder(new OrderRequest("G-1", "ML86", "123456789", "2345")), signer))
                .containsEntry("customer_no", "123456789 (2345)").doesNotContainKey("customer_no_zone");
    }

    @Test
    void balanceAndPriceListAreSignedWithTheirWords() throws Exception {
        assertThat(dialect.body(ProviderRequest.balance(), signer)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cmd", "deposit", "username", USERNAME, "sign", md5(USERNAME + KEY + "depo")));
        assertThat(dialect.body(ProviderRequest.priceList(null, null), signer)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cmd", "prepaid", "username", USERNAME, "sign", md5(USERNAME + KEY + "pricelist")));
    }

    @Test
    void theSeedDialectNeverSendsAPriceLimit() {
        assertThat(Dialect.TOPUP.body(ProviderRequest.createOrder(
                new OrderRequest("R-1", "TSEL10", "081234567890", null, 11_000L)), new Signer("k", "s")))
                .doesNotContainKey("max_price").containsKeys("api_key", "product_sku", "sign");
    }

    @Test
    void readsTheDeposit() {
        Balance b = (Balance) dialect.read(ProviderClient.CHECK_BALANCE, null, ok("{\"data\":{\"deposit\":1000}}"));
        assertThat(b.balance()).isEqualTo(1000L);
    }

    @Test
    void readsThePriceListWithItsStatusesAndStock() {
        String body = """
                {"data":[
                 {"product_name":"Xl 100.000","category":"Pulsa","brand":"XL","type":"Umum","seller_name":"Toko A",
                  "price":100175,"buyer_sku_code":"xl100","buyer_product_status":true,"seller_product_status":true,
                  "unlimited_stock":true,"stock":0,"multi":true,"start_cut_off":"23:45","end_cut_off":"0:15","desc":"-"},
                 {"product_name":"Xl 5.000","category":"Pulsa","brand":"XL","type":"Umum","seller_name":"Toko B",
                  "price":5900,"buyer_sku_code":"xl5","buyer_product_status":true,"seller_product_status":false,
                  "unlimited_stock":true,"stock":0,"multi":true,"start_cut_off":"0:0","end_cut_off":"0:0","desc":"-"},
                 {"product_name":"Xl 10.000","category":"Pulsa","brand":"XL","type":"Umum","seller_name":"Toko C",
                  "price":10900,"buyer_sku_code":"xl10","buyer_product_status":true,"seller_product_status":true,
                  "unlimited_stock":false,"stock":0,"multi":true,"start_cut_off":"0:0","end_cut_off":"0:0","desc":"-"}
                ]}""";
        @SuppressWarnings("unchecked")
        List<Product> products = (List<Product>) dialect.read(ProviderClient.PRICE_LIST, null, ok(body));
        assertThat(products).extracting(Product::sku).containsExactly("xl100", "xl5", "xl10");
        assertThat(products.get(0).price()).isEqualTo(100_175L);
        assertThat(products).extracting(Product::available).containsExactly(true, false, false);
    }

    @Test
    void pendingAndSuccessAreOrders() {
        Order pending = (Order) dialect.read(ProviderClient.CREATE_ORDER, "some1d", ok("""
                {"data":{"ref_id":"some1d","customer_no":"087800001233","buyer_sku_code":"xld25",
                 "message":"Transaksi Pending","status":"Pending","rc":"03","buyer_last_saldo":4975000,"sn":"",
                 "price":25000,"tele":"getsingerbot","wa":"081359192918"}}"""));
        assertThat(pending.status()).isEqualTo(OrderStatus.PENDING);
        assertThat(pending.price()).isEqualTo(25_000L);
        assertThat(pending.balanceAfter()).isEqualTo(4_975_000L);
        assertThat(pending.serialNumber()).isNull();
        Order done = (Order) dialect.read(ProviderClient.CREATE_ORDER, "some1d", ok("""
                {"data":{"ref_id":"some1d","customer_no":"087800001233","buyer_sku_code":"xld25",
                 "message":"Transaksi Sukses","status":"Sukses","rc":"00","buyer_last_saldo":4975000,
                 "sn":"0419100000012345","price":25000}}"""));
        assertThat(done.status()).isEqualTo(OrderStatus.SUCCESS);
        assertThat(done.serialNumber()).isEqualTo("0419100000012345");
    }

    /** The response-code table: a code with "no transaction made" is a refusal, with the code we act on. */
    @Test
    void refusalsThatMadeNoTransaction() {
        assertThat(refusal("44", "Saldo tidak cukup").is(ProviderError.INSUFFICIENT_BALANCE)).isTrue();
        assertThat(refusal("44", "Saldo tidak cukup").stopsSubmission()).isTrue();
        assertThat(refusal("41", "Signature tidak valid").is(ProviderError.INVALID_SIGNATURE)).isTrue();
        assertThat(refusal("43", "SKU tidak di temukan atau Non-Aktif").meansProductUnavailable()).isTrue();
        assertThat(refusal("49", "Ref ID tidak unik").meansOrderExists()).isTrue();
        ProviderException e = refusal("45", "IP Anda tidak kami kenali");
        assertThat(e.outcomeUnknown()).isFalse();
        assertThat(e.providerMessage()).isEqualTo("IP Anda tidak kami kenali");
    }

    private ProviderException refusal(String rc, String message) {
        String body = "{\"data\":{\"ref_id\":\"R-1\",\"customer_no\":\"081234567890\",\"buyer_sku_code\":\"xld25\","
                + "\"message\":\"" + message + "\",\"status\":\"Gagal\",\"rc\":\"" + rc + "\",\"buyer_last_saldo\":0,\"price\":0}}";
        try {
            dialect.read(ProviderClient.CREATE_ORDER, "R-1", ok(body));
        } catch (ProviderException e) {
            return e;
        }
        throw new AssertionError("rc " + rc + " was not read as a refusal");
    }

    /** A failure with a transaction made (wrong number, rc 54) is a failed order: final, with its code. */
    @Test
    void failuresWithATransactionAreFailedOrders() {
        Order failed = (Order) dialect.read(ProviderClient.CREATE_ORDER, "R-2", ok("""
                {"data":{"ref_id":"R-2","customer_no":"0878","buyer_sku_code":"xld25","message":"Nomor Tujuan Salah",
                 "status":"Gagal","rc":"54","buyer_last_saldo":5000000,"sn":"","price":25000}}"""));
        assertThat(failed.status()).isEqualTo(OrderStatus.FAILED);
        assertThat(failed.message()).isEqualTo("Nomor Tujuan Salah (rc 54)");
    }

    @Test
    void whatCannotBeTrustedLeavesTheOrderUnknown() {
        // a 5xx with a body, a success with a failure code, an answer for another ref_id, no data at all
        for (HttpProviderClient.HttpAnswer answer : List.of(
                new HttpProviderClient.HttpAnswer(500, "{\"data\":{\"rc\":\"00\",\"status\":\"Sukses\"}}", null),
                ok("{\"data\":{\"ref_id\":\"R-3\",\"status\":\"Sukses\",\"rc\":\"02\",\"price\":1}}"),
                ok("{\"data\":{\"ref_id\":\"OTHER\",\"status\":\"Pending\",\"rc\":\"03\",\"price\":1}}"),
                ok("{\"message\":\"ok\"}"),
                ok("<html>gateway</html>"),
                // the Malaysian page's example: a price in cents is not rupiah we can charge
                ok("{\"data\":{\"ref_id\":\"R-3\",\"status\":\"Processing\",\"rc\":\"03\",\"price\":5.12}}"))) {
            assertThatThrownBy(() -> dialect.read(ProviderClient.CREATE_ORDER, "R-3", answer))
                    .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.outcomeUnknown())
                            .as("%s", answer.body()).isTrue());
        }
    }

    @Test
    void anUnknownFailureCodeIsAFailedOrderNeverARefusal() {
        Order failed = (Order) dialect.read(ProviderClient.CREATE_ORDER, "R-4", ok(
                "{\"data\":{\"ref_id\":\"R-4\",\"status\":\"Gagal\",\"rc\":\"99\",\"message\":\"x\",\"price\":1000}}"));
        assertThat(failed.status()).isEqualTo(OrderStatus.FAILED);
    }

    @Test
    void aBalanceRefusalCarriesItsCode() {
        assertThatThrownBy(() -> dialect.read(ProviderClient.CHECK_BALANCE, null,
                new HttpProviderClient.HttpAnswer(400, "{\"data\":{\"rc\":\"41\",\"message\":\"Signature tidak valid\"}}", null)))
                .isInstanceOfSatisfying(ProviderException.class,
                        e -> assertThat(e.is(ProviderError.INVALID_SIGNATURE)).isTrue());
    }

    @Test
    void dialectsByName() {
        assertThat(Dialect.named("Digiflazz")).contains(Dialect.DIGIFLAZZ);
        assertThat(Dialect.named("topup")).contains(Dialect.TOPUP);
        assertThat(Dialect.named("iak")).isEmpty();
    }
}
