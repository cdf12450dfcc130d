package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The Digiflazz buyer operations after authentication: Cek Saldo, Daftar Harga and Topup (with its status
 * check by the same ref_id), on the sandbox's one account and order desk. Returns the whole answer
 * ({@code {"data":...}}) or throws {@link DigiflazzRefusal}.
 */
final class DigiflazzDesk {

    /** A Topup answer, and whether it made a new order (only then can the lost-answer knobs lose it). */
    record TransactionAnswer(ObjectNode answer, boolean newOrder) {
    }

    private final ObjectMapper mapper;
    private final SandboxConfig config;
    private final SandboxCatalog catalog;
    private final SandboxAccount account;
    private final SandboxOrders orders;
    private final Supplier<Instant> clock;
    /** When the last full price list was answered (the price-list-interval knob counts from it). */
    private Instant lastFullPriceList;

    DigiflazzDesk(ObjectMapper mapper, SandboxConfig config, SandboxCatalog catalog, SandboxAccount account,
                  SandboxOrders orders, Supplier<Instant> clock) {
        this.mapper = mapper;
        this.config = config;
        this.catalog = catalog;
        this.account = account;
        this.orders = orders;
        this.clock = clock;
    }

    long balance() {
        return account.balance();
    }

    /** https://developer.digiflazz.com/api/buyer/cek-saldo: {@code cmd} must be "deposit". */
    ObjectNode cekSaldo(ObjectNode body) {
        if (!"deposit".equals(text(body, "cmd", true))) {
            throw DigiflazzRefusal.payload("cmd must be deposit");
        }
        return DigiflazzJson.deposit(mapper, account.balance());
    }

    /**
     * https://developer.digiflazz.com/api/buyer/daftar-harga/: {@code cmd} prepaid (the catalog) or pasca (the
     * sandbox sells no postpaid products: an empty list); optional filters code, category, brand, type.
     */
    ObjectNode priceList(ObjectNode body) {
        String cmd = text(body, "cmd", true);
        String code = text(body, "code", false);
        String category = text(body, "category", false);
        String brand = text(body, "brand", false);
        String type = text(body, "type", false);
        ArrayNode list = mapper.createArrayNode();
        if ("prepaid".equals(cmd) && (code == null || code.isEmpty())) {
            limitFullPriceLists();
        }
        if ("prepaid".equals(cmd)) {
            for (SandboxProduct p : catalog.all()) {
                if (matches(code, p.sku()) && matches(category, DigiflazzJson.category(p)) && matches(brand, p.brand())
                        && matches(type, DigiflazzJson.TYPE)) {
                    list.add(DigiflazzJson.priceListEntry(mapper, p, config));
                }
            }
        } else if (!"pasca".equals(cmd)) {
            throw DigiflazzRefusal.payload("cmd must be prepaid or pasca");
        }
        return DigiflazzJson.wrap(mapper, list);
    }

    /**
     * Digiflazz answers a list of every product at most once per interval and refuses the others with
     * rc 83 (the price-list-interval knob; 0 answers every one). A refused request does not move the interval.
     */
    private synchronized void limitFullPriceLists() {
        java.time.Duration interval = config.priceListInterval();
        Instant now = clock.get();
        if (!interval.isZero() && lastFullPriceList != null && now.isBefore(lastFullPriceList.plus(interval))) {
            throw new DigiflazzRefusal(DigiflazzRc.PRICE_LIST_LIMITED, "full price list answered at " + lastFullPriceList
                    + "; the next one from " + lastFullPriceList.plus(interval));
        }
        lastFullPriceList = now;
    }

    private static boolean matches(String filter, String value) {
        return filter == null || filter.isEmpty() || filter.equalsIgnoreCase(value);
    }

    /**
     * https://developer.digiflazz.com/api/buyer/topup/. The same ref_id again (same product and customer_no)
     * within the reuse window is the status check of https://developer.digiflazz.com/api/buyer/cek-status/:
     * the transaction as it is now, nothing made or charged. With another product or customer_no it is rc 49.
     * After the window the ref_id makes a new transaction, as that page warns.
     */
    TransactionAnswer transaction(ObjectNode body, String refId) {
        String sku = text(body, "buyer_sku_code", true);
        String customerNo = text(body, "customer_no", true);
        bool(body, "testing");
        bool(body, "allow_dot");
        text(body, "cb_url", false);
        Long maxPrice = maxPrice(body);
        Optional<ObjectNode> status = statusCheck(refId, sku, customerNo);
        if (status.isPresent()) {
            return new TransactionAnswer(status.get(), false);
        }
        SandboxOrders.Rules rules = new SandboxOrders.Rules(config.refIdReuseAfter(), maxPrice, true);
        try {
            SandboxOrders.OrderView view = orders.create(refId, sku, customerNo, null, rules);
            return new TransactionAnswer(DigiflazzJson.wrap(mapper, DigiflazzJson.transaction(mapper, view)), true);
        } catch (SandboxException e) {
            switch (e.code()) {
                case "DUPLICATE_REF_ID":
                    // another request with this ref_id made the order a moment ago: this one is its status check
                    return new TransactionAnswer(statusCheck(refId, sku, customerNo).orElseThrow(() -> e), false);
                case "PRODUCT_NOT_FOUND":
                case "PRODUCT_UNAVAILABLE":
                    throw new DigiflazzRefusal(DigiflazzRc.SKU_NOT_FOUND_OR_INACTIVE, e.getMessage());
                case "PRICE_ABOVE_MAX":
                    throw new DigiflazzRefusal(DigiflazzRc.PRICE_ABOVE_MAX, e.getMessage());
                case "INSUFFICIENT_BALANCE":
                    throw new DigiflazzRefusal(DigiflazzRc.BALANCE_INSUFFICIENT, e.getMessage());
                default:
                    throw e;
            }
        }
    }

    /** The answer of a re-sent ref_id still inside the window; empty when the ref_id is free (or given up). */
    private Optional<ObjectNode> statusCheck(String refId, String sku, String customerNo) {
        Optional<SandboxOrders.OrderView> found = orders.find(refId);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        LedgerEntry e = found.get().entry();
        if (e.createdAt().plus(config.refIdReuseAfter()).isBefore(clock.get())) {
            return Optional.empty();
        }
        if (!e.productSku().equals(sku) || !e.customerNo().equals(customerNo)) {
            throw new DigiflazzRefusal(DigiflazzRc.REF_ID_NOT_UNIQUE,
                    "ref_id " + refId + " belongs to another transaction");
        }
        return Optional.of(DigiflazzJson.wrap(mapper, DigiflazzJson.transaction(mapper, found.get())));
    }

    /** max_price is an Int on the Topup page: a whole number of IDR, 0 or more; absent or null for none. */
    private static Long maxPrice(ObjectNode body) {
        JsonNode node = body.get("max_price");
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
            throw DigiflazzRefusal.payload("max_price must be a whole number");
        }
        return node.longValue();
    }

    /** A String field; a wrong JSON type (or a required one missing) is the Payload Error, rc 40. */
    static String text(ObjectNode body, String field, boolean required) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw DigiflazzRefusal.payload(field + " is required");
            }
            return null;
        }
        if (!node.isTextual()) {
            throw DigiflazzRefusal.payload(field + " must be a string");
        }
        return node.textValue();
    }

    /** An optional Boolean field (testing, allow_dot): accepted, and changes nothing in the sandbox. */
    private static void bool(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node != null && !node.isNull() && !node.isBoolean()) {
            throw DigiflazzRefusal.payload(field + " must be true or false");
        }
    }
}
