package org.topupbatch.provider;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Digiflazz's buyer API, from its public documentation (docs/digiflazz.md cites each page):
 * {@code /v1/cek-saldo}, {@code /v1/price-list} and {@code /v1/transaction}, each signed
 * md5(username + key + "depo" / "pricelist" / ref_id), answers wrapped in {@code data} and judged
 * by their {@code rc}. The account's username travels where the seed dialect has the api_key, so
 * {@code topup.api-key} holds the username and {@code topup.api-secret} the API key.
 *
 * <p>It has no order history, profile or check-order: an order's status is learnt by sending the
 * same transaction again under its ref_id, which the documentation allows for 90 days only.
 */
final class DigiflazzDialect implements Dialect {

    /** The documentation warns that a status check after 90 days makes a new transaction; a day spare. */
    static final Duration RESEND_WINDOW = Duration.ofDays(89);

    @Override
    public String name() {
        return "digiflazz";
    }

    @Override
    public boolean supports(String operation) {
        return switch (operation) {
            case ProviderClient.CHECK_BALANCE, ProviderClient.PRICE_LIST, ProviderClient.CREATE_ORDER -> true;
            default -> false;
        };
    }

    @Override
    public String path(String operation) {
        return switch (operation) {
            case ProviderClient.CHECK_BALANCE -> "/v1/cek-saldo";
            case ProviderClient.PRICE_LIST -> "/v1/price-list";
            case ProviderClient.CREATE_ORDER -> "/v1/transaction";
            default -> throw new IllegalArgumentException("the digiflazz dialect has no " + operation);
        };
    }

    @Override
    public Map<String, Object> body(ProviderRequest request, Signer signer) {
        Map<String, Object> body = new LinkedHashMap<>();
        Map<String, Object> fields = request.fields();
        switch (request.operation()) {
            case ProviderClient.CHECK_BALANCE -> {
                body.put("cmd", "deposit");
                body.put("username", signer.apiKey());
                body.put("sign", signer.sign("depo"));
            }
            case ProviderClient.PRICE_LIST -> {
                body.put("cmd", "prepaid");
                body.put("username", signer.apiKey());
                copy(fields, "category", body, "category");
                copy(fields, "brand", body, "brand");
                body.put("sign", signer.sign("pricelist"));
            }
            case ProviderClient.CREATE_ORDER -> {
                String refId = request.refId();
                body.put("username", signer.apiKey());
                body.put("buyer_sku_code", fields.get("product_sku"));
                // Digiflazz has no zone field: the zone goes inside the number, as players write it,
                // "123456789 (2012)" (a guess the documentation neither confirms nor rules out)
                Object zone = fields.get("customer_no_zone");
                body.put("customer_no", zone == null ? fields.get("customer_no")
                        : fields.get("customer_no") + " (" + zone + ")");
                body.put("ref_id", refId);
                body.put("sign", signer.sign(refId));
                copy(fields, "max_price", body, "max_price");
            }
            default -> throw new IllegalArgumentException("the digiflazz dialect has no " + request.operation());
        }
        return body;
    }

    private static void copy(Map<String, Object> from, String field, Map<String, Object> to, String as) {
        Object v = from.get(field);
        if (v != null) {
            to.put(as, v);
        }
    }

    @Override
    public Object read(String operation, String refId, HttpProviderClient.HttpAnswer answer) {
        JsonNode data = dataOrThrow(operation, answer);
        try {
            return switch (operation) {
                case ProviderClient.CHECK_BALANCE -> balance(operation, answer, data);
                case ProviderClient.PRICE_LIST -> products(operation, answer, data);
                case ProviderClient.CREATE_ORDER -> order(operation, answer, data, refId);
                default -> throw new IllegalArgumentException("the digiflazz dialect has no " + operation);
            };
        } catch (UnreadableAnswerException | ArithmeticException e) {
            throw AnswerClassifier.unreadable(operation, answer, e.getMessage(), e);
        }
    }

    @Override
    public boolean statusByResending() {
        return true;
    }

    @Override
    public Optional<Duration> resendWindow() {
        return Optional.of(RESEND_WINDOW);
    }

    /**
     * The {@code data} of an answer. A 5xx or an answer we cannot read leaves a transaction's
     * outcome unknown; a 429 is the rate limit as everywhere.
     */
    private static JsonNode dataOrThrow(String operation, HttpProviderClient.HttpAnswer answer) {
        JsonNode root = AnswerClassifier.parse(answer.body());
        JsonNode data = root != null && root.isObject() ? root.get("data") : null;
        boolean readable = data != null && (data.isObject() || data.isArray());
        if (answer.status() == 429) {
            return AnswerClassifier.dataOrThrow(operation, answer); // throws RATE_LIMIT_EXCEEDED as the seed reads it
        }
        if (!readable) {
            if (answer.status() >= 200 && answer.status() < 300) {
                throw AnswerClassifier.unreadable(operation, answer, "answer has no data object", null);
            }
            return AnswerClassifier.dataOrThrow(operation, answer); // the status decides: unknown on 5xx
        }
        if (answer.status() >= 500 && ProviderClient.CREATE_ORDER.equals(operation)) {
            // a server error with a body still says nothing certain about the transaction
            throw new ProviderException(operation, ProviderError.UNKNOWN_ERROR.name(), answer.status(), true,
                    message(data), answer.retryAfterSeconds(), null);
        }
        return data;
    }

    /** A refusal or a failure the rc names outside a transaction answer (balance, price list). */
    private static void refuseOnRc(String operation, HttpProviderClient.HttpAnswer answer, JsonNode data) {
        String rc = data.isObject() ? AnswerReader.text(data, "rc") : null;
        if (rc != null && !DigiflazzCodes.SUCCESS.equals(rc.trim())) {
            String code = DigiflazzCodes.refusal(rc);
            throw new ProviderException(operation, code == null ? "RC_" + rc.trim() : code, answer.status(), false,
                    message(data), answer.retryAfterSeconds(), null);
        }
    }

    private static Balance balance(String operation, HttpProviderClient.HttpAnswer answer, JsonNode data) {
        refuseOnRc(operation, answer, data);
        if (!data.isObject()) {
            throw new UnreadableAnswerException("balance: data is not an object");
        }
        // the deposit may come with decimals (".0"); a real fraction of a rupiah is refused, not rounded
        return new Balance(AnswerReader.requiredLong(data, "deposit"), "IDR", null, null);
    }

    private static List<Product> products(String operation, HttpProviderClient.HttpAnswer answer, JsonNode data) {
        if (!data.isArray()) {
            refuseOnRc(operation, answer, data);
            throw new UnreadableAnswerException("price list: data is not an array");
        }
        List<Product> products = new ArrayList<>(data.size());
        for (JsonNode p : data) {
            if (!p.isObject()) {
                throw new UnreadableAnswerException("price list: an entry is not an object");
            }
            String sku = AnswerReader.text(p, "buyer_sku_code");
            if (sku == null || sku.isBlank()) {
                throw new UnreadableAnswerException("buyer_sku_code is missing");
            }
            Boolean buyerActive = AnswerReader.bool(p, "buyer_product_status");
            Boolean sellerActive = AnswerReader.bool(p, "seller_product_status");
            Boolean unlimited = AnswerReader.bool(p, "unlimited_stock");
            Long stock = AnswerReader.optionalLong(p, "stock");
            boolean inStock = unlimited == null || unlimited || stock == null || stock > 0;
            boolean available = !Boolean.FALSE.equals(buyerActive) && !Boolean.FALSE.equals(sellerActive) && inStock;
            products.add(new Product(sku, AnswerReader.text(p, "product_name"), AnswerReader.text(p, "brand"),
                    AnswerReader.text(p, "category"), AnswerReader.requiredLong(p, "price"), 0L, available,
                    AnswerReader.text(p, "desc")));
        }
        return List.copyOf(products);
    }

    /**
     * A transaction answer: Sukses and Pending are orders; a Gagal whose rc says no transaction was
     * made is a refusal; any other Gagal is a failed order (made, then failed: final, nothing charged).
     */
    private static Order order(String operation, HttpProviderClient.HttpAnswer answer, JsonNode data, String refId) {
        if (!data.isObject()) {
            throw new UnreadableAnswerException("transaction: data is not an object");
        }
        String rc = AnswerReader.text(data, "rc");
        String refusal = DigiflazzCodes.refusal(rc);
        if (refusal != null) {
            throw new ProviderException(operation, refusal, answer.status(), false, message(data),
                    answer.retryAfterSeconds(), null);
        }
        String word = AnswerReader.text(data, "status");
        OrderStatus status = OrderStatus.parse(word).orElse(null);
        if (status == null) {
            // no status word we know: the rc alone is trusted only for its two documented meanings
            if (DigiflazzCodes.SUCCESS.equals(rc)) {
                status = OrderStatus.SUCCESS;
            } else if (DigiflazzCodes.PENDING.equals(rc)) {
                status = OrderStatus.PENDING;
            } else {
                throw new UnreadableAnswerException("transaction status '" + word + "' with rc " + rc + " is not one we know");
            }
        }
        if (status == OrderStatus.SUCCESS && rc != null && !DigiflazzCodes.SUCCESS.equals(rc.trim())) {
            throw new UnreadableAnswerException("transaction says " + word + " but rc " + rc);
        }
        String answered = AnswerReader.text(data, "ref_id");
        if (answered != null && refId != null && !answered.equals(refId)) {
            throw new UnreadableAnswerException("transaction answer is for ref_id " + answered + ", not " + refId);
        }
        String sn = AnswerReader.text(data, "sn");
        String message = message(data);
        if (status == OrderStatus.FAILED && rc != null) {
            message = (message == null ? "failed" : message) + " (rc " + rc.trim() + ")";
        }
        return new Order(refId != null ? refId : answered, AnswerReader.text(data, "buyer_sku_code"),
                AnswerReader.text(data, "customer_no"), status, sn == null || sn.isBlank() ? null : sn,
                AnswerReader.optionalLong(data, "price"), null, wholeOrNull(data, "buyer_last_saldo"),
                message);
    }

    /** The balance after an order only informs: one with a fraction of a rupiah is left unsaid, not refused. */
    private static Long wholeOrNull(JsonNode data, String field) {
        java.math.BigDecimal d = AnswerReader.decimal(data, field);
        if (d == null) {
            return null;
        }
        try {
            return d.longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    private static String message(JsonNode data) {
        JsonNode m = data == null || !data.isObject() ? null : data.get("message");
        return m == null || !m.isValueNode() || m.isNull() ? null : m.asText();
    }

    @Override
    public String toString() {
        return name();
    }
}
