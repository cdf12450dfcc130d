package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A sandbox reseller top-up provider: an independent implementation of the interface in docs/provider.md plus the
 * decisions of docs/provider-client.md, served over HTTP with the JDK's server. All its threads are daemon threads.
 * With {@code dialect=digiflazz} it speaks Digiflazz's buyer API instead (docs/digiflazz.md), on the same account.
 */
public final class SandboxProvider implements AutoCloseable {

    /** Request threads: generous, because injected latency sleeps on them. */
    static final int REQUEST_THREADS = 64;

    static {
        // The JDK server writes headers and body in separate packets; with Nagle on, each answer waits
        // for the client's delayed ACK (~40 ms). Read once when the server classes load; an explicit
        // setting by the operator wins.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final SandboxConfig config;
    private final HttpServer server;
    private final ExecutorService requestPool;
    private final ScheduledExecutorService scheduler;
    private final SandboxAccount account;
    private final SandboxOrders orders;
    private final SandboxRateLimiter limiter;
    private final SandboxRequestCounter counter;
    private final WebhookSender webhooks;
    private volatile Clock clock = Clock.systemUTC();

    private SandboxProvider(SandboxConfig config, String host, int port) throws IOException {
        this.config = config;
        ObjectMapper mapper = new ObjectMapper();
        Random random = config.seed() == null ? new Random() : new Random(config.seed());
        Supplier<Instant> now = () -> clock.instant();
        SandboxCatalog catalog = SandboxCatalog.load(mapper);
        SandboxStateFile stateFile = SandboxStateFile.of(config);
        Optional<SandboxStateFile.SavedState> saved = stateFile.load();
        // a kept account keeps its balance: the balance knob only opens a fresh one (or replaces it live)
        this.account = new SandboxAccount(saved.map(SandboxStateFile.SavedState::balance).orElse(config.balance()));
        this.limiter = new SandboxRateLimiter();
        this.counter = new SandboxRequestCounter();
        this.scheduler = Executors.newScheduledThreadPool(4, daemonThreads("sandbox-scheduler"));
        this.webhooks = new WebhookSender(config, random, mapper, now, scheduler);
        this.orders = new SandboxOrders(catalog, account, config, random, now, scheduler, webhooks, stateFile);
        config.onBalanceSet(balance -> {
            account.setBalance(balance);
            orders.balanceChanged();
        });
        saved.ifPresent(orders::restore);
        SandboxOperations operations = new SandboxOperations(mapper, config, catalog, account, orders, limiter);
        SandboxInspection inspection = new SandboxInspection(mapper, config, orders, account, this::stats, now);
        DigiflazzApi digiflazz = new DigiflazzApi(mapper, config, random, now, limiter, counter,
                new DigiflazzDesk(mapper, config, catalog, account, orders, now));
        SandboxHttpHandler handler = new SandboxHttpHandler(mapper, config, random, now, limiter, operations, counter,
                inspection, digiflazz);
        inspection.attach(handler);
        this.requestPool = Executors.newFixedThreadPool(REQUEST_THREADS, daemonThreads("sandbox-http"));
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), port), 128);
        server.createContext("/", handler);
        server.setExecutor(requestPool);
    }

    /** Starts a sandbox on 127.0.0.1; port 0 picks a free port. */
    public static SandboxProvider start(SandboxConfig config, int port) {
        return start(config, "127.0.0.1", port);
    }

    /** Starts a sandbox on the given address (the standalone server may listen beyond loopback). */
    public static SandboxProvider start(SandboxConfig config, String host, int port) {
        SandboxProvider provider;
        try {
            provider = new SandboxProvider(config, host, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port, e);
        }
        provider.startServer();
        return provider;
    }

    /**
     * The JDK server's dispatcher thread takes its daemon flag from the thread that starts it, so it is
     * started from a daemon thread: a forgotten sandbox never keeps a JVM alive.
     */
    private void startServer() {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Thread starter = new Thread(() -> {
            try {
                server.start();
            } catch (RuntimeException e) {
                failure.set(e);
            }
        }, "sandbox-start");
        starter.setDaemon(true);
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the sandbox", e);
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    public String baseUrl() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + port();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public SandboxConfig config() {
        return config;
    }

    /** Every order ever created, in creation order. */
    public List<LedgerEntry> ledger() {
        return orders.ledger();
    }

    public SandboxStats stats() {
        return counter.snapshot(limiter.busiestWindow());
    }

    /** Requests answered by the rate-limit-storm and outage knobs (not in {@link #stats()}). */
    public long injectedFaults() {
        return counter.injectedFaults();
    }

    /** For tests in this package (the daily limit cannot be reached by HTTP calls in a test's time). */
    SandboxRateLimiter rateLimiterForTests() {
        return limiter;
    }

    /** The live deposit balance. */
    public long balance() {
        return account.balance();
    }

    // ---- acts on the account, as the provider or other users of the account would do them (docs/sandbox.md) ----

    /**
     * Pays {@code amount} IDR into the account, as a top-up of the deposit would: the balance grows, no order
     * is made, nothing goes to the order history or the ledger, no webhook, no request counted.
     *
     * @throws IllegalArgumentException when amount is not above 0 or the balance would overflow
     */
    public Deposit deposit(long amount) {
        try {
            return orders.deposit(amount);
        } catch (SandboxException e) {
            throw forJava(e);
        }
    }

    /** Every deposit made by {@link #deposit(long)} or {@code POST /sandbox/deposit}, oldest first. */
    public List<Deposit> deposits() {
        return orders.deposits();
    }

    /**
     * Places an order on the account as another integration with the same api_key would: the same order
     * desk as {@code /v1/create-order} (same checks and their order, charged from the balance, in the ledger
     * and the order history, settles by the settle knobs, fail-rate and the 0000 rule apply, webhooks to the
     * account's webhook_url). Not seen by our client's counters: no signature, no rate limit, not in
     * {@link #stats()}, no latency, injected errors or lost answers.
     *
     * @param zone null or blank for none
     * @return the order as created (success, failed or pending)
     * @throws IllegalArgumentException for a missing or malformed field, an unknown product or a customer
     *                                  number the product refuses (message: error code, reason)
     * @throws IllegalStateException    for a used ref_id (DUPLICATE_REF_ID), a product out of stock
     *                                  (PRODUCT_UNAVAILABLE) or a balance too low (INSUFFICIENT_BALANCE)
     */
    public LedgerEntry foreignOrder(String refId, String sku, String customerNo, String zone) {
        try {
            requireArgument(refId, "ref_id");
            requireArgument(sku, "product_sku");
            requireArgument(customerNo, "customer_no");
            SandboxOperations.checkRefId(refId);
            return orders.create(refId, sku, customerNo, zone).entry();
        } catch (SandboxException e) {
            throw forJava(e);
        }
    }

    /**
     * The provider refunds a success order after the fact: it becomes failed ("refunded by the provider"),
     * its price goes back to the balance, {@code refunded} true, serial number cleared; balance_before and
     * balance_after stay as at creation. An {@code order.updated} webhook with status failed is sent.
     *
     * @return the order after the refund
     * @throws IllegalArgumentException for an unknown ref_id (ORDER_NOT_FOUND)
     * @throws IllegalStateException    for an order not in success (ORDER_NOT_REFUNDABLE)
     */
    public LedgerEntry refund(String refId) {
        try {
            requireArgument(refId, "ref_id");
            return orders.refund(refId).entry();
        } catch (SandboxException e) {
            throw forJava(e);
        }
    }

    private static void requireArgument(String value, String name) {
        if (value == null) {
            throw SandboxException.invalidRequest(name + " is required");
        }
    }

    /** The sandbox's refusals as Java callers expect them: the account's state (402, 409, 422) or a bad argument. */
    private static RuntimeException forJava(SandboxException e) {
        String message = e.code() + ": " + e.getMessage();
        int status = e.httpStatus();
        if (status == 402 || status == 409 || status == 422) {
            return new IllegalStateException(message);
        }
        if (status >= 500) {
            return new IllegalStateException(message);
        }
        return new IllegalArgumentException(message);
    }

    /** The clock of the rate-limit and daily windows and of created_at / settled_at; tests pass a mutable one. */
    public void setClock(Clock clock) {
        this.clock = java.util.Objects.requireNonNull(clock);
    }

    @Override
    public void close() {
        server.stop(0);
        requestPool.shutdownNow();
        scheduler.shutdownNow();
        try {
            requestPool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        config.onBalanceSet(b -> { });
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
