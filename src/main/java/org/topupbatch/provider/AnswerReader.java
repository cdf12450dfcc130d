package org.topupbatch.provider;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns the {@code data} part of a provider answer into the typed records, liberally: numbers
 * may be JSON integers, decimals with a zero fraction or digit strings; booleans may be
 * {@code true}, {@code "true"} or {@code 1}; status words go through {@link OrderStatus#parse}.
 * Money is read exactly into {@code long} rupiah: a fractional amount is refused rather than
 * rounded. Anything that cannot be read raises {@link UnreadableAnswerException}.
 */
final class AnswerReader {

    private AnswerReader() {
    }

    static Balance balance(JsonNode data) {
        requireObject(data, "balance");
        return new Balance(requiredLong(data, "balance"), text(data, "currency"), text(data, "tier"), text(data, "name"));
    }

    static List<Product> products(JsonNode data) {
        // Some providers wrap lists in an object; accept {"products": [...]} too.
        JsonNode list = data != null && data.isObject() && data.has("products") ? data.get("products") : data;
        if (list == null || !list.isArray()) {
            throw new UnreadableAnswerException("price list: data is not an array");
        }
        List<Product> products = new ArrayList<>(list.size());
        for (JsonNode p : list) {
            requireObject(p, "product");
            String sku = requiredText(p, "product_sku");
            Boolean available = bool(p, "status");
            Long selling = optionalLong(p, "selling_price");
            products.add(new Product(sku, text(p, "product_name"), text(p, "brand"), text(p, "category"),
                    requiredLong(p, "price"),
                    selling == null ? 0L : selling,
                    // Not said = not refused: the provider answers PRODUCT_UNAVAILABLE if it matters.
                    available == null || available,
                    text(p, "description")));
        }
        return List.copyOf(products);
    }

    /** An order of create-order or check-order; {@code expectedRefId} stands in for a missing ref_id. */
    static Order order(JsonNode data, String expectedRefId) {
        requireObject(data, "order");
        String refId = text(data, "ref_id");
        return new Order(refId == null ? expectedRefId : refId, text(data, "product_sku"), text(data, "customer_no"),
                requiredStatus(data), text(data, "serial_number"), optionalLong(data, "price"),
                optionalLong(data, "balance_before"), optionalLong(data, "balance_after"), text(data, "message"));
    }

    static OrderHistoryPage historyPage(JsonNode data) {
        requireObject(data, "order history");
        JsonNode orders = data.get("orders");
        if (orders == null || !orders.isArray()) {
            throw new UnreadableAnswerException("order history: orders is not an array");
        }
        List<OrderListEntry> entries = new ArrayList<>(orders.size());
        for (JsonNode o : orders) {
            requireObject(o, "order list entry");
            entries.add(new OrderListEntry(requiredText(o, "ref_id"), text(o, "product_sku"), text(o, "product_name"),
                    text(o, "customer_no"), requiredStatus(o), text(o, "serial_number"), optionalLong(o, "price"),
                    instant(o, "created_at")));
        }
        JsonNode p = data.get("pagination");
        requireObject(p, "pagination");
        Pagination pagination = new Pagination(requiredInt(p, "page"), requiredInt(p, "limit"),
                requiredLong(p, "total"), requiredInt(p, "total_pages"));
        return new OrderHistoryPage(List.copyOf(entries), pagination);
    }

    static Profile profile(JsonNode data) {
        requireObject(data, "profile");
        JsonNode usage = data.get("api_usage");
        ApiUsage apiUsage = null;
        if (usage != null && usage.isObject()) {
            apiUsage = new ApiUsage(longOr0(usage, "today"), longOr0(usage, "this_month"),
                    Math.toIntExact(longOr0(usage, "limit_per_minute")), longOr0(usage, "limit_per_day"));
        }
        List<String> whitelist = null;
        JsonNode ips = data.get("ip_whitelist");
        if (ips != null && ips.isArray()) {
            whitelist = new ArrayList<>();
            for (JsonNode ip : ips) {
                if (ip.isValueNode() && !ip.isNull()) {
                    whitelist.add(ip.asText());
                }
            }
            whitelist = List.copyOf(whitelist);
        }
        return new Profile(text(data, "id"), text(data, "name"), text(data, "email"), text(data, "phone"),
                text(data, "tier"), requiredLong(data, "balance"), longOr0(data, "total_orders"),
                longOr0(data, "total_success"), decimal(data, "success_rate"), instant(data, "joined_at"),
                apiUsage, text(data, "webhook_url"), whitelist);
    }

    // ---- lenient scalar readers -------------------------------------------------------------

    /** Reads a lenient boolean: true/false, "true"/"false", 1/0, "1"/"0", "yes"/"no"; null when absent. */
    static Boolean bool(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isIntegralNumber()) {
            if (v.asLong() == 1) {
                return true;
            }
            if (v.asLong() == 0) {
                return false;
            }
        }
        if (v.isTextual()) {
            switch (v.asText().trim().toLowerCase(Locale.ROOT)) {
                case "true": case "1": case "yes": case "y": case "active": case "available":
                    return true;
                case "false": case "0": case "no": case "n": case "inactive": case "unavailable":
                    return false;
                default:
                    break;
            }
        }
        throw new UnreadableAnswerException(field + " is not a boolean");
    }

    /** A whole number from an integer, a zero-fraction decimal or a digit string; null when absent. */
    static Long optionalLong(JsonNode node, String field) {
        BigDecimal d = decimal(node, field);
        if (d == null) {
            return null;
        }
        try {
            return d.longValueExact();
        } catch (ArithmeticException e) {
            throw new UnreadableAnswerException(field + " is not a whole number");
        }
    }

    static long requiredLong(JsonNode node, String field) {
        Long v = optionalLong(node, field);
        if (v == null) {
            throw new UnreadableAnswerException(field + " is missing");
        }
        return v;
    }

    private static long longOr0(JsonNode node, String field) {
        Long v = optionalLong(node, field);
        return v == null ? 0L : v;
    }

    private static int requiredInt(JsonNode node, String field) {
        long v = requiredLong(node, field);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new UnreadableAnswerException(field + " is out of range");
        }
        return (int) v;
    }

    /** Any number, exactly (the mapper reads floats as BigDecimal); null when absent or empty. */
    static BigDecimal decimal(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isNumber()) {
            return v.decimalValue();
        }
        if (v.isTextual()) {
            String s = v.asText().trim();
            if (s.isEmpty()) {
                return null;
            }
            try {
                return new BigDecimal(s);
            } catch (NumberFormatException e) {
                throw new UnreadableAnswerException(field + " is not a number");
            }
        }
        throw new UnreadableAnswerException(field + " is not a number");
    }

    /** A text value; numbers are taken as their text (customer numbers sometimes come as numbers). */
    static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isValueNode()) {
            return v.asText();
        }
        throw new UnreadableAnswerException(field + " is not a text");
    }

    private static String requiredText(JsonNode node, String field) {
        String v = text(node, field);
        if (v == null || v.isBlank()) {
            throw new UnreadableAnswerException(field + " is missing");
        }
        return v;
    }

    private static OrderStatus requiredStatus(JsonNode node) {
        String word = text(node, "status");
        if (word == null) {
            throw new UnreadableAnswerException("status is missing");
        }
        return OrderStatus.parse(word).orElseThrow(() -> new UnreadableAnswerException("unknown status word: " + word));
    }

    /**
     * An ISO-8601 timestamp with or without zone (no zone = UTC), a space allowed for the 'T',
     * or a plain date (midnight UTC). Null when absent or not readable: timestamps only inform,
     * and refusing a whole history page over one would block reconciliation.
     */
    static Instant instant(JsonNode node, String field) {
        String s = text(node, field);
        if (s == null || s.isBlank()) {
            return null;
        }
        String iso = s.trim().replace(' ', 'T');
        try {
            return OffsetDateTime.parse(iso).toInstant();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(iso).atStartOfDay().toInstant(ZoneOffset.UTC);
                } catch (DateTimeParseException notDate) {
                    return null;
                }
            }
        }
    }

    private static void requireObject(JsonNode node, String what) {
        if (node == null || !node.isObject()) {
            throw new UnreadableAnswerException(what + " is not a JSON object");
        }
    }
}
