package org.topupbatch.provider;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Several accounts (README "Several accounts") as the parts of the product that see one provider
 * see them: the balance is the accounts' total, the rate their sum, and a "too many requests" pauses
 * every account. Orders and look-ups are always made at one row's own account
 * ({@link #of(String)}); asked here, they fail loudly rather than go to an account by chance.
 */
public final class AccountsGateway extends ProviderGateway {

    private final Map<String, ProviderGateway> accounts;
    /** How long an account that could not be connected to is left out of what asks every account. */
    static final java.time.Duration UNREACHABLE_FOR = java.time.Duration.ofMinutes(1);
    private final Map<String, java.time.Instant> unreachableUntil = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param accounts each account's gateway, in the order of topup.providers; the first stands in for the rest */
    public AccountsGateway(Map<String, ProviderGateway> accounts, ProviderClient firstClient, RateBudget firstBudget) {
        super(firstClient, firstBudget);
        if (accounts.isEmpty()) {
            throw new IllegalArgumentException("no account");
        }
        this.accounts = Map.copyOf(accounts);
    }

    /** The gateway of one account. */
    public ProviderGateway of(String account) {
        ProviderGateway gateway = accounts.get(account);
        if (gateway == null) {
            throw new IllegalStateException("no account " + account + " in topup.providers (" + accounts.keySet() + ")");
        }
        return gateway;
    }

    /**
     * The accounts' total balance (the summary's balance_before and balance_after), of those that can be
     * asked now: one that cannot be reached must not hold up the others' batches. Refused credentials,
     * or no account reached at all, are thrown.
     */
    @Override
    public Balance checkBalance() {
        long total = 0;
        int reached = 0;
        ProviderException unreachable = null;
        for (Map.Entry<String, ProviderGateway> account : accounts.entrySet()) {
            if (!reachable(account.getKey())) {
                continue; // each try waits out the client's retries: not again for a while
            }
            try {
                total += account.getValue().checkBalance().balance();
                reached++;
            } catch (ProviderException e) {
                if (e.stopsSubmission()) {
                    throw e;
                }
                if (e.is(ProviderError.CONNECTION_FAILED)) {
                    unreachable(account.getKey());
                }
                unreachable = e;
            }
        }
        if (reached == 0 && unreachable != null) {
            throw unreachable;
        }
        return new Balance(total, "IDR", null, reached == accounts.size() ? "all accounts" : reached + " of " + accounts.size() + " accounts");
    }

    /** No connection could be made to the account just now: what asks every account leaves it out for a minute. */
    public void unreachable(String account) {
        unreachableUntil.put(account, java.time.Instant.now().plus(UNREACHABLE_FOR));
    }

    /** False for a minute after no connection could be made to the account. */
    public boolean reachable(String account) {
        java.time.Instant until = unreachableUntil.get(account);
        return until == null || java.time.Instant.now().isAfter(until);
    }

    @Override
    public int requestsPerMinute() {
        return accounts.values().stream().mapToInt(ProviderGateway::requestsPerMinute).sum();
    }

    @Override
    public void rateLimited(ProviderException e) {
        accounts.values().forEach(g -> g.rateLimited(e));
    }

    @Override
    public List<Product> priceList() {
        throw perAccount("price-list");
    }

    @Override
    public OrderHistoryPage orderHistory(HistoryQuery query) {
        throw perAccount("order-history");
    }

    @Override
    public Optional<Order> checkOrder(String refId) {
        throw perAccount("check-order");
    }

    @Override
    public Order createOrder(OrderRequest request) {
        throw perAccount("create-order");
    }

    private static IllegalStateException perAccount(String operation) {
        return new IllegalStateException(operation + " is asked of one account (several accounts are set)");
    }
}
