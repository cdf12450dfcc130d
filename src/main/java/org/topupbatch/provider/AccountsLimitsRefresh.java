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

    public AccountsLimitsRefresh(CallLog journal, Map<String, Account> accounts, RateBudget firstBudget, Clock clock) {
        super(journal, accounts.values().iterator().next().gateway(), firstBudget, clock, 1);
        this.accounts = new LinkedHashMap<>(accounts);
    }

    @Override
    public void refreshLimits() {
        for (Map.Entry<String, Account> account : accounts.entrySet()) {
            try {
                account.getValue().limits().refreshLimits();
                if (!started) {
                    account.getValue().gateway().checkBalance();
                }
            } catch (ProviderException e) {
                throw new ProviderException("account " + account.getKey(), e.code(), e.httpStatus(), e.outcomeUnknown(),
                        e.providerMessage(), e.retryAfterSeconds(), e);
            }
        }
        started = true;
    }
}
