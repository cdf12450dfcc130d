package org.topupbatch.provider;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every provider account a run sends to, as one list (docs/accounts-and-dialects.md#several-accounts): the accounts of
 * topup.providers, or the one account of topup.base-url as a list of one. What is asked of one account
 * (an order, a look-up, a price list) is asked of its own gateway ({@link #of(String)}); what the parts
 * of the product that see one provider ask is answered here for the whole list: the balance is the
 * accounts' total, the rate their sum, a "too many requests" pauses every account, and the limits are
 * refreshed account by account.
 *
 * <p>The one account of topup.base-url has no name ({@code null}): its calls, price list, balances and
 * rows are journaled without one, as they always were, and its failures are shown as the provider's.
 */
public final class Accounts {

    private static final Logger LOG = LoggerFactory.getLogger(Accounts.class);
    /** How long an account that could not be connected to is left out of what asks every account. */
    static final Duration UNREACHABLE_FOR = Duration.ofMinutes(1);

    /**
     * One account: its name (null for the one account of topup.base-url), its gateway, how its limits are
     * refreshed, and whether its balance is asked at start-up too (a named account's: proof that it
     * answers and takes its credentials even when its rate is set rather than asked).
     */
    public record Account(String name, ProviderGateway gateway, AccountLimitsRefresh limits, boolean balanceAtStart) {

        /** The one account of topup.base-url. */
        public static Account unnamed(ProviderGateway gateway, AccountLimitsRefresh limits) {
            return new Account(null, gateway, limits, false);
        }

        /** An account of topup.providers. */
        public static Account named(String name, ProviderGateway gateway, AccountLimitsRefresh limits) {
            return new Account(java.util.Objects.requireNonNull(name), gateway, limits, true);
        }
    }

    private final List<Account> accounts;
    private final Map<String, Instant> unreachableUntil = new ConcurrentHashMap<>();
    private volatile boolean started;

    public Accounts(List<Account> accounts) {
        if (accounts.isEmpty()) {
            throw new IllegalArgumentException("no account");
        }
        this.accounts = List.copyOf(accounts);
    }

    /** One unnamed account on its own, its limits kept as they are (tests, and callers with one gateway). */
    public static Accounts lone(ProviderGateway gateway) {
        return new Accounts(List.of(Account.unnamed(gateway, null)));
    }

    /** The accounts, in the order of topup.providers. */
    public List<Account> all() {
        return accounts;
    }

    /** The accounts' names, in order (null for the one account of topup.base-url). */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        accounts.forEach(a -> names.add(a.name()));
        return names;
    }

    /** The gateway of one account (null: the one account of topup.base-url). */
    public ProviderGateway of(String name) {
        for (Account account : accounts) {
            if (java.util.Objects.equals(account.name(), name)) {
                return account.gateway();
            }
        }
        throw new IllegalStateException(name == null ? "an order without an account, and topup.providers is set"
                : "no account " + name + " in topup.providers (" + names() + ")");
    }

    /**
     * The accounts' total balance (the summary's balance_before and balance_after), of those that can be
     * asked now: one that cannot be reached must not hold up the others' batches. Refused credentials,
     * or no account reached at all, are thrown. One account's total is its own balance record.
     */
    public Balance checkBalance() {
        // a lone account is always asked: there is no other account to go on with meanwhile
        boolean leaveOutUnreachable = accounts.size() > 1;
        long total = 0;
        Balance only = null;
        int reached = 0;
        ProviderException unreachable = null;
        for (Account account : accounts) {
            if (leaveOutUnreachable && !reachable(account.name())) {
                continue; // each try waits out the client's retries: not again for a while
            }
            try {
                only = account.gateway().checkBalance();
                total += only.balance();
                reached++;
            } catch (ProviderException e) {
                if (e.stopsSubmission()) {
                    throw e;
                }
                if (e.is(ProviderError.CONNECTION_FAILED)) {
                    unreachable(account.name());
                }
                unreachable = e;
            }
        }
        if (reached == 0 && unreachable != null) {
            throw unreachable;
        }
        if (accounts.size() == 1 && reached == 1) {
            return only;
        }
        return new Balance(total, "IDR", null, reached == accounts.size() ? "all accounts" : reached + " of " + accounts.size() + " accounts");
    }

    /** No connection could be made to the account just now: what asks every account leaves it out for a minute. */
    public void unreachable(String account) {
        unreachableUntil.put(key(account), Instant.now().plus(UNREACHABLE_FOR));
    }

    /** False for a minute after no connection could be made to the account. */
    public boolean reachable(String account) {
        Instant until = unreachableUntil.get(key(account));
        return until == null || Instant.now().isAfter(until);
    }

    /** The accounts' requests per minute together, as their rate budgets judge by now. */
    public int requestsPerMinute() {
        return accounts.stream().mapToInt(a -> a.gateway().requestsPerMinute()).sum();
    }

    /** The provider said "too many requests" to a call made outside a gateway: every account pauses. */
    public void rateLimited(ProviderException e) {
        accounts.forEach(a -> a.gateway().rateLimited(e));
    }

    /**
     * Each account's limits, and at the first call the balance of those that ask it at start-up. An
     * account that refuses its credentials stops the start (a setting to mend). One that cannot be
     * reached does not, while another can: the accounts that answer take the rows (an unreachable
     * account's price list is not read, so it takes no new row), and its own rows go to their next
     * account once it refuses the connection. When none can be reached the start stops. A named
     * account's failure names it: {@code account dfz: INVALID_SIGNATURE ...}.
     */
    public void refreshLimits() {
        ProviderException unreachable = null;
        Map<String, String> notReached = new java.util.LinkedHashMap<>();
        int reached = 0;
        for (Account account : accounts) {
            try {
                if (account.limits() != null) {
                    account.limits().refreshLimits();
                }
                if (!started && account.balanceAtStart()) {
                    account.gateway().checkBalance();
                }
                reached++;
            } catch (ProviderException e) {
                ProviderException named = account.name() == null ? e : new ProviderException("account " + account.name(),
                        e.code(), e.httpStatus(), e.outcomeUnknown(), e.providerMessage(), e.retryAfterSeconds(), e);
                if (e.stopsSubmission()) {
                    throw named;
                }
                notReached.put(account.name(), e.getMessage());
                if (e.is(ProviderError.CONNECTION_FAILED)) {
                    unreachable(account.name());
                }
                unreachable = named;
            }
        }
        if (reached == 0 && unreachable != null) {
            throw unreachable;
        }
        // told once another account answered: a lone account's failure is the one line the caller shows
        notReached.forEach((name, why) -> LOG.warn("Account {} cannot be reached now ({}); the other accounts go on", name, why));
        started = true;
    }

    private static String key(String account) {
        return account == null ? "" : account; // the one account of topup.base-url has no name
    }
}
