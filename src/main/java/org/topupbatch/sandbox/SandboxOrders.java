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
 * settle delay, refunds failed ones, and hands every final status to the webhook sender. Also the
 * sandbox's acts on the account: deposits, and refunds of success orders after the fact.
 */
final class SandboxOrders {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SandboxOrders.class);

    static final String MSG_SUCCESS = "Transaction successful";
    static final String MSG_PENDING = "Transaction is being processed";
    static final String MSG_REFUNDED_LATER = "Transaction failed: refunded by the provider; balance refunded";
    /** The failure of a customer_no whose digits end in 0000 (the deterministic failure of docs/sandbox.md). */
    static final String FAIL_CUSTOMER_NOT_FOUND = "customer account not found";
    static final String FAIL_SUPPLIER_REJECTED = "supplier rejected the transaction";
    /** Starts the fail reason of an order kept failed because its customer_no was refused ({@link Rules#keepRefusedCustomer}). */
    static final String FAIL_CUSTOMER_REFUSED = "customer number refused";

    private final SandboxCatalog catalog;
    private final SandboxAccount account;
    private final SandboxConfig config;
    private final Random random;
    private final Supplier<Instant> clock;
    private final ScheduledExecutorService scheduler;
    private final WebhookSender webhooks;
    private final SandboxStateFile stateFile;

    // both guarded by this
    private final Map<String, Order> byRef = new HashMap<>();
    private final List<Order> ledger = new ArrayList<>();
    private final List<Deposit> deposits = new ArrayList<>();

    SandboxOrders(SandboxCatalog catalog, SandboxAccount account, SandboxConfig config, Random random,
                  Supplier<Instant> clock, ScheduledExecutorService scheduler, WebhookSender webhooks,
                  SandboxStateFile stateFile) {
        this.catalog = catalog;
        this.account = account;
        this.config = config;
        this.random = random;
        this.clock = clock;
        this.scheduler = scheduler;
        this.webhooks = webhooks;
        this.stateFile = stateFile;
    }

    /**
     * A read-only picture of one order, with what the wire needs beyond the ledger entry; {@code failReason} is
     * null unless the order failed at creation or in settlement (a refund after the fact has none).
     */
    record OrderView(LedgerEntry entry, String productName, String message, String failReason) {
    }

    /**
     * How a dialect's order desk differs from create-order's. {@code refIdReuseAfter}: null, a used ref_id is
     * always DUPLICATE_REF_ID; else an order made longer ago than this gives its ref_id up to a new order (it
     * stays in the ledger). {@code maxPrice}: null, none; else a price above it is PRICE_ABOVE_MAX (nothing
     * made, nothing charged). {@code keepRefusedCustomer}: a customer_no the product refuses makes a failed order
     * (nothing charged) instead of a refusal, as Digiflazz forms a transaction for "Nomor Tujuan Salah".
     */
    record Rules(java.time.Duration refIdReuseAfter, Long maxPrice, boolean keepRefusedCustomer) {
        static final Rules CREATE_ORDER = new Rules(null, null, false);
    }

    /**
     * Creates an order, or throws DUPLICATE_REF_ID, PRODUCT_NOT_FOUND, PRODUCT_UNAVAILABLE, ZONE_REQUIRED,
     * INVALID_CUSTOMER_NO, INSUFFICIENT_BALANCE, checked in that order.
     */
    OrderView create(String refId, String sku, String customerNo, String zone) {
        return create(refId, sku, customerNo, zone, Rules.CREATE_ORDER);
    }

    /** As {@link #create(String, String, String, String)}, with a dialect's {@link Rules}; PRICE_ABOVE_MAX after PRODUCT_UNAVAILABLE. */
    OrderView create(String refId, String sku, String customerNo, String zone, Rules rules) {
        Order order;
        synchronized (this) {
            // the duplicate check comes first: a re-sent ref_id must always learn that its order exists
            Order used = byRef.get(refId);
            if (used != null && !(rules.refIdReuseAfter() != null
                    && used.createdAt.plus(rules.refIdReuseAfter()).isBefore(clock.get()))) {
                throw new SandboxException(409, "DUPLICATE_REF_ID", "ref_id " + refId + " has already been used");
            }
            SandboxProduct product = catalog.find(sku).orElseThrow(() ->
                    new SandboxException(404, "PRODUCT_NOT_FOUND", "unknown product_sku " + sku));
            if (!config.available(product)) {
                throw new SandboxException(422, "PRODUCT_UNAVAILABLE", "product " + sku + " is currently unavailable");
            }
            long price = config.tier().priceOf(config.basicPrice(product));
            if (rules.maxPrice() != null && price > rules.maxPrice()) {
                throw new SandboxException(422, "PRICE_ABOVE_MAX", "price " + price + " is above max_price " + rules.maxPrice());
            }
            String zoneOrNull = zone == null || zone.isBlank() ? null : zone;
            Instant createdAt = clock.get();
            String refusal = customerRefusal(product, customerNo, zoneOrNull, rules);
            if (refusal != null) {
                // kept as a failed order that never cost anything: the balance before and after are the same
                long balance = account.balance();
                order = new Order(refId, product, customerNo, zoneOrNull, price, balance, balance, createdAt, null,
                        FAIL_CUSTOMER_REFUSED + ": " + refusal);
                order.status = "failed";
                order.message = "Transaction failed: " + order.failReason;
                order.settledAt = createdAt;
            } else {
                long before = account.debit(price);
                String failReason = failReason(customerNo);
                Instant settleAt = product.async() ? createdAt.plus(config.settleDelay().pick(random)) : null;
                order = new Order(refId, product, customerNo, zoneOrNull, price, before, before - price, createdAt,
                        settleAt, failReason);
                if (!product.async()) {
                    settle(order);
                }
            }
            byRef.put(refId, order);
            ledger.add(order);
            save(); // before the answer: a client told about an order finds it after any restart
        }
        if (order.status.equals("pending")) {
            scheduleSettlement(order);
        }
        webhooks.orderCreated(view(order));
        return view(order);
    }

    /** null when the product takes the customer_no (and zone); the refusal's reason when a dialect keeps it as a failed order. */
    private static String customerRefusal(SandboxProduct product, String customerNo, String zone, Rules rules) {
        try {
            product.rule().check(customerNo, zone);
            return null;
        } catch (SandboxException refused) {
            if (!rules.keepRefusedCustomer()) {
                throw refused;
            }
            return refused.getMessage();
        }
    }

    /** Adds money to the balance: no order, no webhook; kept in the state file. */
    Deposit deposit(long amount) {
        if (amount <= 0) {
            throw SandboxException.invalidRequest("amount must be a whole number of IDR above 0, not " + amount);
        }
        synchronized (this) {
            long before = account.credit(amount);
            Deposit deposit = new Deposit(amount, clock.get(), before, before + amount);
            deposits.add(deposit);
            save();
            return deposit;
        }
    }

    synchronized List<Deposit> deposits() {
        return List.copyOf(deposits);
    }

    /**
     * The provider takes back a delivered order: success becomes failed, the price goes back to the
     * balance, the serial number is cleared; balance_before/after stay as at creation, settled_at stays
     * the first settlement. An {@code order.updated} webhook goes out as for any status change.
     */
    OrderView refund(String refId) {
        OrderView view;
        synchronized (this) {
            Order order = byRef.get(refId);
            if (order == null) {
                throw new SandboxException(400, "ORDER_NOT_FOUND", "no order with ref_id " + refId);
            }
            if (!order.status.equals("success")) {
                throw new SandboxException(409, "ORDER_NOT_REFUNDABLE",
                        "order " + refId + " is " + order.status + "; only a success order can be refunded");
            }
            account.refund(order.price);
            order.status = "failed";
            order.serialNumber = null;
            order.refunded = true;
            order.message = MSG_REFUNDED_LATER;
            save();
            view = view(order);
        }
        webhooks.orderChanged(view);
        return view;
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
            return FAIL_CUSTOMER_NOT_FOUND;
        }
        if (random.nextDouble() < config.failRate()) {
            return FAIL_SUPPLIER_REJECTED;
        }
        return null;
    }

    private void scheduleSettlement(Order order) {
        long delay = order.settleAt == null ? 0 : Math.max(0, Duration.between(clock.get(), order.settleAt).toMillis());
        scheduler.schedule(() -> settleLater(order), delay, TimeUnit.MILLISECONDS);
    }

    private void settleLater(Order order) {
        synchronized (this) {
            settle(order);
            try {
                save();
            } catch (SandboxException e) {
                // the order settled all the same; the next change writes the state whole again
                LOG.warn("{}", e.getMessage());
            }
        }
        webhooks.orderChanged(view(order));
    }

    /** Writes the account to the state file, if any; caller holds the lock, so writes follow the changes' order. */
    private void save() {
        try {
            stateFile.save(savedState());
        } catch (java.io.IOException e) {
            throw new SandboxException(500, "INTERNAL_ERROR", "the sandbox could not save its state: " + e.getMessage());
        }
    }

    /** Also called when the balance knob replaced the balance. */
    synchronized void balanceChanged() {
        save();
    }

    synchronized SandboxStateFile.SavedState savedState() {
        List<SandboxStateFile.SavedOrder> saved = new ArrayList<>(ledger.size());
        for (Order o : ledger) {
            saved.add(new SandboxStateFile.SavedOrder(o.refId, o.product.sku(), o.customerNo, o.zone, o.price,
                    o.balanceBefore, o.balanceAfter, o.createdAt.toEpochMilli(),
                    o.settleAt == null ? null : o.settleAt.toEpochMilli(), o.failReason, o.status, o.serialNumber,
                    o.message, o.settledAt == null ? null : o.settledAt.toEpochMilli(), o.refunded));
        }
        List<SandboxStateFile.SavedDeposit> savedDeposits = new ArrayList<>(deposits.size());
        for (Deposit d : deposits) {
            savedDeposits.add(new SandboxStateFile.SavedDeposit(d.amount(), d.at().toEpochMilli(), d.balanceBefore(),
                    d.balanceAfter()));
        }
        return new SandboxStateFile.SavedState(SandboxStateFile.VERSION, account.balance(), saved, savedDeposits);
    }

    /**
     * Takes the orders and deposits of a saved state back (the balance is the account's business). Pending orders
     * settle when their settle time comes, at once when it has passed while the sandbox was down, and
     * their webhooks go out as for any settlement.
     */
    void restore(SandboxStateFile.SavedState state) {
        List<Order> pending = new ArrayList<>();
        synchronized (this) {
            if (state.deposits() != null) {
                for (SandboxStateFile.SavedDeposit d : state.deposits()) {
                    deposits.add(new Deposit(d.amount(), Instant.ofEpochMilli(d.at()), d.balanceBefore(), d.balanceAfter()));
                }
            }
            for (SandboxStateFile.SavedOrder s : state.orders()) {
                SandboxProduct product = catalog.find(s.productSku()).orElseThrow(() -> new SandboxStateException(
                        "the sandbox state names product " + s.productSku() + ", which the catalog no longer has;"
                        + " move the state file away to start the sandbox's account afresh", null));
                Order o = new Order(s.refId(), product, s.customerNo(), s.zone(), s.price(), s.balanceBefore(),
                        s.balanceAfter(), Instant.ofEpochMilli(s.createdAt()),
                        s.settleAt() == null ? null : Instant.ofEpochMilli(s.settleAt()), s.failReason());
                o.status = s.status();
                o.serialNumber = s.serialNumber();
                o.message = s.message();
                o.settledAt = s.settledAt() == null ? null : Instant.ofEpochMilli(s.settledAt());
                o.refunded = s.refunded();
                byRef.put(o.refId, o);
                ledger.add(o);
                if (o.status.equals("pending")) {
                    pending.add(o);
                }
            }
        }
        pending.forEach(this::scheduleSettlement);
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
        return new OrderView(entry, o.product.name(), o.message, o.status.equals("failed") ? o.failReason : null);
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
        /** When an async order settles; null for instantly settled products. */
        final Instant settleAt;
        final String failReason;
        String status = "pending";
        String serialNumber;
        String message = MSG_PENDING;
        Instant settledAt;
        boolean refunded;

        Order(String refId, SandboxProduct product, String customerNo, String zone, long price, long balanceBefore,
              long balanceAfter, Instant createdAt, Instant settleAt, String failReason) {
            this.refId = refId;
            this.product = product;
            this.customerNo = customerNo;
            this.zone = zone;
            this.price = price;
            this.balanceBefore = balanceBefore;
            this.balanceAfter = balanceAfter;
            this.createdAt = createdAt;
            this.settleAt = settleAt;
            this.failReason = failReason;
        }
    }
}
