package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The field checks and answers of each operation, run after the request passed authentication and the
 * rate limit. Returns the {@code data} of the envelope.
 */
final class SandboxOperations {

    static final int HISTORY_DEFAULT_LIMIT = 20;
    static final int HISTORY_MAX_LIMIT = 100;
    private static final Pattern REF_ID = Pattern.compile("[A-Za-z0-9._-]{1,50}");
    private static final Set<String> STATUSES = Set.of("pending", "success", "failed");

    private final ObjectMapper mapper;
    private final SandboxConfig config;
    private final SandboxCatalog catalog;
    private final SandboxAccount account;
    private final SandboxOrders orders;
    private final SandboxRateLimiter limiter;

    SandboxOperations(ObjectMapper mapper, SandboxConfig config, SandboxCatalog catalog, SandboxAccount account,
                      SandboxOrders orders, SandboxRateLimiter limiter) {
        this.mapper = mapper;
        this.config = config;
        this.catalog = catalog;
        this.account = account;
        this.orders = orders;
        this.limiter = limiter;
    }

    JsonNode run(SandboxOperation op, ObjectNode body, String apiKey, Instant now) {
        switch (op) {
            case CHECK_BALANCE: return checkBalance();
            case PRICE_LIST: return priceList(body);
            case CREATE_ORDER: return createOrder(body);
            case ORDER_HISTORY: return orderHistory(body);
            case PROFILE: return profile(apiKey, now);
            case CHECK_ORDER: return checkOrder(body);
            default: throw new IllegalStateException(op.name());
        }
    }

    private JsonNode checkBalance() {
        ObjectNode data = mapper.createObjectNode();
        data.put("balance", account.balance());
        data.put("currency", "IDR");
        data.put("tier", config.tier().wireName());
        data.put("name", SandboxAccount.NAME);
        return data;
    }

    private JsonNode priceList(ObjectNode body) {
        String category = optionalText(body, "category");
        String brand = optionalText(body, "brand");
        ArrayNode data = mapper.createArrayNode();
        for (SandboxProduct p : catalog.all()) {
            // filters are lenient on case; an unknown value simply matches nothing
            if ((category == null || category.isEmpty() || p.category().equalsIgnoreCase(category))
                    && (brand == null || brand.isEmpty() || p.brand().equalsIgnoreCase(brand))) {
                data.add(SandboxJson.product(mapper, p, config));
            }
        }
        return data;
    }

    private JsonNode createOrder(ObjectNode body) {
        String refId = requiredText(body, "ref_id");
        String sku = requiredText(body, "product_sku");
        String customerNo = requiredText(body, "customer_no");
        String zone = optionalText(body, "customer_no_zone");
        checkRefId(refId);
        return SandboxJson.order(mapper, orders.create(refId, sku, customerNo, zone));
    }

    /** INVALID_REF_ID unless 1 to 50 letters, digits, '-', '_' or '.'; checked before the order desk sees it. */
    static void checkRefId(String refId) {
        if (!REF_ID.matcher(refId).matches()) {
            throw new SandboxException(400, "INVALID_REF_ID",
                    "ref_id must be 1 to 50 characters of letters, digits, '-', '_' or '.'");
        }
    }

    private JsonNode checkOrder(ObjectNode body) {
        String refId = requiredText(body, "ref_id");
        SandboxOrders.OrderView view = orders.find(refId).orElseThrow(() ->
                new SandboxException(404, "ORDER_NOT_FOUND", "no order with ref_id " + refId));
        ObjectNode data = SandboxJson.order(mapper, view);
        data.put("created_at", SandboxJson.timestamp(view.entry().createdAt()));
        return data;
    }

    private JsonNode orderHistory(ObjectNode body) {
        int page = optionalInt(body, "page", 1);
        int limit = optionalInt(body, "limit", HISTORY_DEFAULT_LIMIT);
        if (page < 1) {
            throw SandboxException.invalidRequest("page must be 1 or more");
        }
        if (limit < 1) {
            throw SandboxException.invalidRequest("limit must be 1 or more");
        }
        limit = Math.min(limit, HISTORY_MAX_LIMIT);
        String status = optionalText(body, "status");
        if (status != null && (status.isEmpty() || status.equals("all"))) {
            status = null;
        }
        if (status != null && !STATUSES.contains(status)) {
            throw SandboxException.invalidRequest("status must be pending, success, failed or all");
        }
        LocalDate start = optionalDate(body, "start_date");
        LocalDate end = optionalDate(body, "end_date");
        if (start != null && end != null && end.isBefore(start)) {
            throw SandboxException.invalidRequest("end_date is before start_date");
        }
        String sku = optionalText(body, "product_sku");
        String wantedStatus = status;
        List<SandboxOrders.OrderView> matching = orders.newestFirst().stream()
                .filter(v -> wantedStatus == null || v.entry().status().equals(wantedStatus))
                .filter(v -> sku == null || sku.isEmpty() || v.entry().productSku().equals(sku))
                .filter(v -> {
                    LocalDate day = LocalDate.ofInstant(v.entry().createdAt(), ZoneOffset.UTC);
                    return (start == null || !day.isBefore(start)) && (end == null || !day.isAfter(end));
                })
                .collect(Collectors.toList());
        ArrayNode list = mapper.createArrayNode();
        long from = (long) (page - 1) * limit;
        for (long i = from; i < Math.min(matching.size(), from + limit); i++) {
            list.add(SandboxJson.listEntry(mapper, matching.get((int) i)));
        }
        ObjectNode pagination = mapper.createObjectNode();
        pagination.put("page", page);
        pagination.put("limit", limit);
        pagination.put("total", matching.size());
        pagination.put("total_pages", (matching.size() + limit - 1) / limit);
        ObjectNode data = mapper.createObjectNode();
        data.set("orders", list);
        data.set("pagination", pagination);
        return data;
    }

    private JsonNode profile(String apiKey, Instant now) {
        SandboxTier tier = config.tier();
        long total = orders.totalOrders();
        long success = orders.totalSuccess();
        ObjectNode usage = mapper.createObjectNode();
        usage.put("today", limiter.today(apiKey, now));
        usage.put("this_month", limiter.thisMonth(apiKey, now));
        usage.put("limit_per_minute", tier.limitPerMinute());
        usage.put("limit_per_day", tier.limitPerDay());
        ObjectNode data = mapper.createObjectNode();
        data.put("id", SandboxAccount.ID);
        data.put("name", SandboxAccount.NAME);
        data.put("email", SandboxAccount.EMAIL);
        data.put("phone", SandboxAccount.PHONE);
        data.put("tier", tier.wireName());
        data.put("balance", account.balance());
        data.put("total_orders", total);
        data.put("total_success", success);
        data.put("success_rate", SandboxJson.successRate(success, total));
        data.put("joined_at", SandboxJson.timestamp(SandboxAccount.JOINED_AT));
        data.set("api_usage", usage);
        data.put("webhook_url", config.webhookUrl());
        ArrayNode whitelist = data.putArray("ip_whitelist");
        config.ipWhitelist().forEach(whitelist::add);
        return data;
    }

    // ---- field checks: a missing required field or a wrong JSON type is INVALID_REQUEST ----

    static String requiredText(ObjectNode body, String field) {
        String value = optionalText(body, field);
        if (value == null) {
            throw SandboxException.invalidRequest(field + " is required");
        }
        return value;
    }

    /** null when absent or JSON null. */
    static String optionalText(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw SandboxException.invalidRequest(field + " must be a string");
        }
        return node.textValue();
    }

    private static int optionalInt(ObjectNode body, String field, int defaultValue) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return defaultValue;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw SandboxException.invalidRequest(field + " must be a whole number");
        }
        return node.intValue();
    }

    private static LocalDate optionalDate(ObjectNode body, String field) {
        String text = optionalText(body, field);
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            if (text.length() != 10) {
                throw new DateTimeParseException("not YYYY-MM-DD", text, 0);
            }
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw SandboxException.invalidRequest(field + " must be a date YYYY-MM-DD");
        }
    }
}
