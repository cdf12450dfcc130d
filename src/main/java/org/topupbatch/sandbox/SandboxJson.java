package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The wire shapes of the sandbox: envelope and records, written with Jackson's tree model. */
final class SandboxJson {

    private SandboxJson() {
    }

    /** ISO-8601 UTC with whole seconds, e.g. 2026-11-21T10:00:00Z. */
    static String timestamp(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }

    /** The envelope of every answer; {@code timestamp} as the real provider adds it. */
    static ObjectNode success(ObjectMapper mapper, JsonNode data, Instant now) {
        ObjectNode envelope = mapper.createObjectNode();
        envelope.put("success", true);
        envelope.set("data", data);
        envelope.put("message", "OK");
        envelope.put("timestamp", timestamp(now));
        return envelope;
    }

    static ObjectNode error(ObjectMapper mapper, String code, String message, Instant now) {
        ObjectNode envelope = mapper.createObjectNode();
        envelope.put("success", false);
        envelope.putNull("data");
        envelope.put("message", message);
        envelope.put("error_code", code);
        envelope.put("timestamp", timestamp(now));
        return envelope;
    }

    /** The order record of 2.2; check-order adds created_at. */
    static ObjectNode order(ObjectMapper mapper, SandboxOrders.OrderView view) {
        LedgerEntry e = view.entry();
        ObjectNode node = mapper.createObjectNode();
        node.put("ref_id", e.refId());
        node.put("product_sku", e.productSku());
        node.put("customer_no", e.customerNo());
        node.put("status", e.status());
        node.put("serial_number", e.serialNumber());
        node.put("price", e.price());
        node.put("balance_before", e.balanceBefore());
        node.put("balance_after", e.balanceAfter());
        node.put("message", view.message());
        return node;
    }

    /** The order list entry of 2.3. */
    static ObjectNode listEntry(ObjectMapper mapper, SandboxOrders.OrderView view) {
        LedgerEntry e = view.entry();
        ObjectNode node = mapper.createObjectNode();
        node.put("ref_id", e.refId());
        node.put("product_sku", e.productSku());
        node.put("product_name", view.productName());
        node.put("customer_no", e.customerNo());
        node.put("status", e.status());
        node.put("serial_number", e.serialNumber());
        node.put("price", e.price());
        node.put("created_at", timestamp(e.createdAt()));
        return node;
    }

    static ObjectNode product(ObjectMapper mapper, SandboxProduct p, SandboxConfig config) {
        SandboxTier tier = config.tier();
        ObjectNode node = mapper.createObjectNode();
        node.put("product_sku", p.sku());
        node.put("product_name", p.name());
        node.put("brand", p.brand());
        node.put("category", p.category());
        node.put("price", tier.priceOf(config.basicPrice(p)));
        node.put("selling_price", p.sellingPrice());
        node.put("status", config.available(p));
        node.put("description", p.description());
        return node;
    }

    static ObjectNode ledgerEntry(ObjectMapper mapper, LedgerEntry e) {
        ObjectNode node = mapper.createObjectNode();
        node.put("ref_id", e.refId());
        node.put("product_sku", e.productSku());
        node.put("customer_no", e.customerNo());
        node.put("customer_no_zone", e.customerNoZone());
        node.put("status", e.status());
        node.put("serial_number", e.serialNumber());
        node.put("price", e.price());
        node.put("balance_before", e.balanceBefore());
        node.put("balance_after", e.balanceAfter());
        node.put("created_at", timestamp(e.createdAt()));
        node.put("settled_at", e.settledAt() == null ? null : timestamp(e.settledAt()));
        node.put("refunded", e.refunded());
        return node;
    }

    /** success/total on a 0-100 scale with exactly two fractional digits (a JSON number such as 97.50). */
    static BigDecimal successRate(long success, long total) {
        if (total == 0) {
            return BigDecimal.ZERO.setScale(2);
        }
        return BigDecimal.valueOf(success).multiply(BigDecimal.valueOf(100))
                .divide(BigDecimal.valueOf(total), 2, RoundingMode.HALF_UP);
    }
}
