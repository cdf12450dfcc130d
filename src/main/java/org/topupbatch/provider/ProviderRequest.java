package org.topupbatch.provider;

import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One provider request before it is signed: the operation, the final component its signature
 * covers (a fixed word or the ref_id), and its fields other than api_key and sign.
 */
public record ProviderRequest(String operation, String signedComponent, Map<String, Object> fields) {

    public ProviderRequest {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(signedComponent, "signedComponent");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** The ref_id the request is about, or null. */
    public String refId() {
        Object ref = fields.get("ref_id");
        return ref == null ? null : ref.toString();
    }

    public static ProviderRequest balance() {
        return new ProviderRequest(ProviderClient.CHECK_BALANCE, Signer.BALANCE, Map.of());
    }

    public static ProviderRequest profile() {
        return new ProviderRequest(ProviderClient.PROFILE, Signer.PROFILE, Map.of());
    }

    /** category and brand may be null or blank (no filter). */
    public static ProviderRequest priceList(String category, String brand) {
        Map<String, Object> fields = new LinkedHashMap<>();
        putIfPresent(fields, "category", category);
        putIfPresent(fields, "brand", brand);
        return new ProviderRequest(ProviderClient.PRICE_LIST, Signer.PRICE_LIST, fields);
    }

    public static ProviderRequest createOrder(OrderRequest order) {
        Objects.requireNonNull(order, "order");
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("ref_id", order.refId());
        fields.put("product_sku", order.productSku());
        fields.put("customer_no", order.customerNo());
        putIfPresent(fields, "customer_no_zone", order.customerNoZone());
        if (order.maxPrice() != null) {
            fields.put("max_price", order.maxPrice());
        }
        return new ProviderRequest(ProviderClient.CREATE_ORDER, order.refId(), fields);
    }

    public static ProviderRequest checkOrder(String refId) {
        Objects.requireNonNull(refId, "refId");
        return new ProviderRequest(ProviderClient.CHECK_ORDER, refId, Map.of("ref_id", refId));
    }

    public static ProviderRequest orderHistory(HistoryQuery query) {
        HistoryQuery q = query == null ? HistoryQuery.all() : query;
        Map<String, Object> fields = new LinkedHashMap<>();
        if (q.page() != null) {
            fields.put("page", q.page());
        }
        if (q.limit() != null) {
            fields.put("limit", q.limit());
        }
        if (q.status() != null) {
            fields.put("status", q.status().wire());
        }
        if (q.startDate() != null) {
            fields.put("start_date", q.startDate().format(DateTimeFormatter.ISO_LOCAL_DATE));
        }
        if (q.endDate() != null) {
            fields.put("end_date", q.endDate().format(DateTimeFormatter.ISO_LOCAL_DATE));
        }
        putIfPresent(fields, "product_sku", q.productSku());
        return new ProviderRequest(ProviderClient.ORDER_HISTORY, Signer.HISTORY, fields);
    }

    private static void putIfPresent(Map<String, Object> fields, String field, String value) {
        if (value != null && !value.isBlank()) {
            fields.put(field, value);
        }
    }

    @Override
    public String toString() {
        return "ProviderRequest[" + operation + (refId() == null ? "" : " " + refId()) + "]";
    }
}
