package org.topupbatch.provider;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way the product talks to the provider: the client behind the one {@link RateBudget},
 * plus the retry policy. Retries happen here, from the caller, so that each one passes the
 * budget again (a retry inside the HTTP layer would slip past it).
 *
 * <ul>
 *   <li>429: every caller pauses (the budget backs off) and the call is tried again; this heals.</li>
 *   <li>Read-only calls: a timeout, a 5xx, a dropped or unreadable answer is tried again a few times.</li>
 *   <li>create-order: tried again only when nothing can have reached the provider (connection
 *       refused) or on 429; an unknown outcome goes back to the caller, which reconciles it.</li>
 * </ul>
 */
public class ProviderGateway {

    private static final Logger LOG = LoggerFactory.getLogger(ProviderGateway.class);
    private static final int READ_ATTEMPTS = 4;
    private static final int CONNECT_ATTEMPTS = 3;
    /** The code of a re-send refused because its ref_id is too old to be sent again safely. */
    public static final String RESEND_WINDOW_PASSED = "RESEND_WINDOW_PASSED";

    private final ProviderClient client;
    private final RateBudget budget;
    private final Sleeper sleeper;

    /** Lets tests skip the waits between retries. */
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;

        Sleeper REAL = d -> Thread.sleep(d.toMillis());
    }

    public ProviderGateway(ProviderClient client, RateBudget budget) {
        this(client, budget, Sleeper.REAL);
    }

    public ProviderGateway(ProviderClient client, RateBudget budget, Sleeper sleeper) {
        this.client = client;
        this.budget = budget;
        this.sleeper = sleeper;
    }

    public Balance checkBalance() {
        return read(ProviderClient.CHECK_BALANCE, client::checkBalance);
    }

    public List<Product> priceList() {
        return read(ProviderClient.PRICE_LIST, () -> client.priceList(null, null));
    }

    public OrderHistoryPage orderHistory(HistoryQuery query) {
        return read(ProviderClient.ORDER_HISTORY, () -> client.orderHistory(query));
    }

    public Profile profile() {
        return read(ProviderClient.PROFILE, client::profile);
    }

    public Optional<Order> checkOrder(String refId) {
        return read(ProviderClient.CHECK_ORDER, () -> client.checkOrder(refId));
    }

    public boolean checkOrderSupported() {
        return client.checkOrderSupported();
    }

    /**
     * True when an order's status is learnt by sending it again under its ref_id (Digiflazz): the
     * provider has no order history or check-order, and the same ref_id never makes a second order.
     */
    public boolean statusByResending() {
        return client.dialect().statusByResending();
    }

    /**
     * Sends an order again under its ref_id, to learn its outcome or to make it if the first request
     * never arrived. Refused without a request once the dialect's window for that has passed since
     * {@code firstSentAt} (Digiflazz would take the ref_id as a new order then): a
     * ProviderException with code {@link #RESEND_WINDOW_PASSED}, which leaves the order to the operator.
     */
    public Order resend(OrderRequest request, Instant firstSentAt) {
        Optional<Duration> window = client.dialect().resendWindow();
        if (window.isPresent() && firstSentAt != null && Instant.now().isAfter(firstSentAt.plus(window.get()))) {
            throw new ProviderException(ProviderClient.CREATE_ORDER, RESEND_WINDOW_PASSED, 0, false,
                    "first sent " + firstSentAt + ", more than " + window.get().toDays()
                            + " days ago: the provider would take the same ref_id as a new order; left to the operator",
                    null, null);
        }
        return createOrder(request);
    }

    /** The account's requests per minute, as the rate budget judges by now. */
    public int requestsPerMinute() {
        return budget.limits().perMinute();
    }

    /** The provider said "too many requests" to a call made outside this gateway: every caller pauses. */
    public void rateLimited(ProviderException e) {
        budget.backOff(e.retryAfterSeconds());
    }

    /** Places an order; a ProviderException with outcomeUnknown means "maybe created". */
    public Order createOrder(OrderRequest request) {
        int connectFailures = 0;
        while (true) {
            try {
                return client.createOrder(request);
            } catch (ProviderException e) {
                if (e.isRateLimited()) {
                    budget.backOff(e.retryAfterSeconds());
                } else if (!e.outcomeUnknown() && e.is(ProviderError.CONNECTION_FAILED)
                        && ++connectFailures < CONNECT_ATTEMPTS) {
                    pause(connectFailures);
                } else {
                    throw e;
                }
            }
        }
    }

    private <T> T read(String operation, Supplier<T> call) {
        int failures = 0;
        while (true) {
            try {
                return call.get();
            } catch (ProviderException e) {
                if (e.isRateLimited()) {
                    budget.backOff(e.retryAfterSeconds());
                } else if (e.transientFailure() && ++failures < READ_ATTEMPTS) {
                    LOG.debug("{} failed ({}), trying again", operation, e.code());
                    pause(failures);
                } else {
                    throw e;
                }
            }
        }
    }

    private void pause(int failures) {
        try {
            sleeper.sleep(Duration.ofMillis(500L << Math.min(failures, 5)));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new ProviderException("gateway", ProviderError.INTERRUPTED, 0, false, "interrupted while waiting", null, ie);
        }
    }
}
