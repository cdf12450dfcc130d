package org.topupbatch.sandbox;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The order desk and the ledger: creates orders (deducting the balance), settles async ones after the
 * settle delay, refunds failed ones, and hands every final status to the webhook sender.
 */
final class SandboxOrders {

    static final String MSG_SUCCESS = "Transaction successful";
    static final String MSG_PENDING = "Transaction is being processed";

    private final SandboxCatalog catalog;
    private final SandboxAccount account;
    private final SandboxConfig config;
    private final Random random;
    private final Supplier<Instant> clock;
    private final ScheduledExecutorService scheduler;
    private final WebhookSender webhooks;

    // both guarded by this
    private final Map<String, Order> byRef = new HashMap<>();
    private final List<Order> ledger = new ArrayList<>();

    SandboxOrders(SandboxCatalog catalog, SandboxAccount account, SandboxConfig config, Random random,
                  Supplier<Instant> clock, ScheduledExecutorService scheduler, WebhookSender webhooks) {
        this.catalog = catalog;
        this.account = account;
        this.config = config;
        this.random = random;
        this.clock = clock;
        this.scheduler = scheduler;
        this.webhooks = webhooks;
    }

    /** A read-only picture of one order, with what the wire needs beyond the ledger entry. */
    record OrderView(LedgerEntry entry, String productName, String message) {
    }

    /**
     * Creates an order, or throws DUPLICATE_REF_ID, PRODUCT_NOT_FOUND, PRODUCT_UNAVAILABLE, ZONE_REQUIRED,
     * INVALID_CUSTOMER_NO, INSUFFICIENT_BALANCE, checked in that order.
     */
    OrderView create(String refId, String sku, String customerNo, String zone) {
        Order order;
        synchronized (this) {
            // the duplicate check comes first: a re-sent ref_id must always learn that its order exists
            if (byRef.containsKey(refId)) {
                throw new SandboxException(409, "DUPLICATE_REF_ID", "ref_id " + refId + " has already been used");
            }
            SandboxProduct product = catalog.find(sku).orElseThrow(() ->
                    new SandboxException(404, "PRODUCT_NOT_FOUND", "unknown product_sku " + sku));
            if (!product.available()) {
                throw new SandboxException(422, "PRODUCT_UNAVAILABLE", "product " + sku + " is currently unavailable");
            }
            String zoneOrNull = zone == null || zone.isBlank() ? null : zone;
            product.rule().check(customerNo, zoneOrNull);
            long price = config.tier().priceOf(product.basicPrice());
            long before = account.debit(price);
            String failReason = failReason(customerNo);
            order = new Order(refId, product, customerNo, zoneOrNull, price, before, before - price, clock.get(), failReason);
            if (!product.async()) {
                settle(order);
            }
            byRef.put(refId, order);
            ledger.add(order);
        }
        if (order.product.async()) {
            Duration delay = config.settleDelay().pick(random);
            scheduler.schedule(() -> settleLater(order), delay.toMillis(), TimeUnit.MILLISECONDS);
        } else {
            webhooks.orderFinal(view(order));
        }
        return view(order);
    }

    Optional<OrderView> find(String refId) {
        synchronized (this) {
            Order order = byRef.get(refId);
            return order == null ? Optional.empty() : Optional.of(view(order));
        }
    }

    synchronized List<OrderView> newestFirst() {
        List<OrderView> out = new ArrayList<>(ledger.size());
        for (int i = ledger.size() - 1; i >= 0; i--) {
            out.add(view(ledger.get(i)));
        }
        return out;
    }

    synchronized List<LedgerEntry> ledger() {
        List<LedgerEntry> out = new ArrayList<>(ledger.size());
        ledger.forEach(o -> out.add(view(o).entry()));
        return out;
    }

    synchronized long totalOrders() {
        return ledger.size();
    }

    synchronized long totalSuccess() {
        return ledger.stream().filter(o -> o.status.equals("success")).count();
    }

    /**
     * Decided at creation so a seeded run is reproducible. The digits rule is the deterministic hook for
     * tests and demos: a customer_no whose digits end in 0000 always fails.
     */
    private String failReason(String customerNo) {
        if (customerNo.replaceAll("\\D", "").endsWith("0000")) {
            return "customer account not found";
        }
        if (random.nextDouble() < config.failRate()) {
            return "supplier rejected the transaction";
        }
        return null;
    }

    private void settleLater(Order order) {
        synchronized (this) {
            settle(order);
        }
        webhooks.orderFinal(view(order));
    }

    /** Moves an order to its final status; caller holds the lock. */
    private void settle(Order order) {
        order.settledAt = clock.get();
        if (order.failReason == null) {
            order.status = "success";
            order.serialNumber = SerialNumbers.next(order.product, random);
            order.message = MSG_SUCCESS;
        } else {
            order.status = "failed";
            account.refund(order.price);
            order.refunded = true;
            order.message = "Transaction failed: " + order.failReason + "; balance refunded";
            if (!order.product.async()) {
                // failed at creation: nothing was kept, so the answer shows the balance unchanged
                order.balanceAfter = order.balanceBefore;
            }
        }
    }

    private static OrderView view(Order o) {
        LedgerEntry entry = new LedgerEntry(o.refId, o.product.sku(), o.customerNo, o.zone, o.status, o.serialNumber,
                o.price, o.balanceBefore, o.balanceAfter, o.createdAt, o.settledAt, o.refunded);
        return new OrderView(entry, o.product.name(), o.message);
    }

    /** Mutable order state; guarded by the SandboxOrders lock. */
    private static final class Order {
        final String refId;
        final SandboxProduct product;
        final String customerNo;
        final String zone;
        final long price;
        final long balanceBefore;
        long balanceAfter;
        final Instant createdAt;
        final String failReason;
        String status = "pending";
        String serialNumber;
        String message = MSG_PENDING;
        Instant settledAt;
        boolean refunded;

        Order(String refId, SandboxProduct product, String customerNo, String zone, long price, long balanceBefore,
              long balanceAfter, Instant createdAt, String failReason) {
            this.refId = refId;
            this.product = product;
            this.customerNo = customerNo;
            this.zone = zone;
            this.price = price;
            this.balanceBefore = balanceBefore;
            this.balanceAfter = balanceAfter;
            this.createdAt = createdAt;
            this.failReason = failReason;
        }
    }
}
