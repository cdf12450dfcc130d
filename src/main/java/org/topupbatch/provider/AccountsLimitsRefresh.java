package org.topupbatch.provider;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Several accounts (README "Several accounts"): each account's limits as {@link AccountLimitsRefresh}
 * reads a single account's, and at start-up its balance too, which proves that it answers and takes
 * its credentials even when its rate is set rather than asked. A failure names the account:
 * {@code account dfz: INVALID_SIGNATURE ...}.
 */
public final class AccountsLimitsRefresh extends AccountLimitsRefresh {

    /** One account: how its limits are refreshed, and its gateway. */
    public record Account(AccountLimitsRefresh limits, ProviderGateway gateway) {
    }

    private final Map<String, Account> accounts;
    private volatile boolean started;
    /** Told of an account that could not be connected to (the accounts' gateway leaves it out for a while). */
    private java.util.function.Consumer<String> unreachableAccount = account -> { };

    public AccountsLimitsRefresh onUnreachable(java.util.function.Consumer<String> listener) {
        this.unreachableAccount = listener;
        return this;
    }

    public AccountsLimitsRefresh(CallLog journal, Map<String, Account> accounts, RateBudget firstBudget, Clock clock) {
        super(journal, accounts.values().iterator().next().gateway(), firstBudget, clock, 1);
        this.accounts = new LinkedHashMap<>(accounts);
    }

    /**
     * An account that refuses its credentials stops the start (a setting to mend). One that cannot be
     * reached does not, while another can: the accounts that answer take the rows (an unreachable
     * account's price list is not read, so it takes no new row), and its own rows go to their next
     * account once it refuses the connection. When none can be reached the start stops.
     */
    @Override
    public void refreshLimits() {
        ProviderException unreachable = null;
        int reached = 0;
        for (Map.Entry<String, Account> account : accounts.entrySet()) {
            try {
                account.getValue().limits().refreshLimits();
                if (!started) {
                    account.getValue().gateway().checkBalance();
                }
                reached++;
            } catch (ProviderException e) {
                ProviderException named = new ProviderException("account " + account.getKey(), e.code(), e.httpStatus(),
                        e.outcomeUnknown(), e.providerMessage(), e.retryAfterSeconds(), e);
                if (e.stopsSubmission()) {
                    throw named;
                }
                LOG.warn("Account {} cannot be reached now ({}); the other accounts go on", account.getKey(), e.getMessage());
                if (e.is(ProviderError.CONNECTION_FAILED)) {
                    unreachableAccount.accept(account.getKey());
                }
                unreachable = named;
            }
        }
        if (reached == 0 && unreachable != null) {
            throw unreachable;
        }
        started = true;
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AccountsLimitsRefresh.class);
}
