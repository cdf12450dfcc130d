package org.topupbatch.sandbox;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sandbox knob {@code price-change}: prices moved away from the catalog, as a provider moves them
 * (about every 30 minutes), so that a test can raise a price in the middle of a batch. Its text form
 * is {@code +30%} (every product) or a comma list of {@code SKU:+30%} with {@code *} for every other
 * product; empty is the catalog's prices.
 */
final class PriceChanges {

    static final PriceChanges NONE = new PriceChanges(Map.of());

    private static final Pattern CHANGE = Pattern.compile("(?:([^:,\\s]+)\\s*:\\s*)?([+-]?\\d{1,4}(?:\\.\\d{1,2})?)%");
    private static final String EVERY = "*";

    private final Map<String, BigDecimal> percentBySku;

    private PriceChanges(Map<String, BigDecimal> percentBySku) {
        this.percentBySku = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(percentBySku));
    }

    static PriceChanges parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        Map<String, BigDecimal> changes = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            Matcher m = CHANGE.matcher(part.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("expected +N% or SKU:+N% (comma-separated), not '" + part.trim() + "'");
            }
            BigDecimal percent = new BigDecimal(m.group(2));
            if (percent.compareTo(BigDecimal.valueOf(-100)) <= 0) {
                throw new IllegalArgumentException("a price cannot fall by 100% or more: " + part.trim());
            }
            changes.put(m.group(1) == null ? EVERY : m.group(1), percent);
        }
        return new PriceChanges(changes);
    }

    /** The basic-tier price now: the catalog's, moved by the change for the SKU (or for every product). */
    long basicPrice(SandboxProduct product) {
        BigDecimal percent = percentBySku.getOrDefault(product.sku(), percentBySku.get(EVERY));
        if (percent == null) {
            return product.basicPrice();
        }
        return BigDecimal.valueOf(product.basicPrice()).multiply(BigDecimal.valueOf(100).add(percent))
                .divide(BigDecimal.valueOf(100), 0, RoundingMode.HALF_UP).longValueExact();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        percentBySku.forEach((sku, p) -> {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(sku.equals(EVERY) ? "" : sku + ":").append(p.signum() >= 0 ? "+" : "").append(p.toPlainString()).append('%');
        });
        return out.toString();
    }
}
