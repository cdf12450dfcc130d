package org.topupbatch.provider;

import java.time.Clock;
import java.time.Duration;


/**
 * Keeps the rate budget sized by the account: reads its limits from the profile (or its tier when
 * the profile says nothing) at start-up and again now and then, since a tier can change.
 */
public class AccountLimitsRefresh {

    /** Until the account says otherwise, assume the smallest tier's day. */
    public static final long UNKNOWN_DAILY_LIMIT = 10_000;

    private final CallLog journal;
    private final ProviderGateway gateway;
    private final RateBudget budget;
    private final Clock clock;
    private final int configuredPerMinute;
    private final long configuredPerDay;

    public AccountLimitsRefresh(CallLog journal, ProviderGateway gateway, RateBudget budget, Clock clock) {
        this(journal, gateway, budget, clock, 0);
    }

    /**
     * {@code configuredPerMinute}: the account's rate as the operator set it ({@code topup.rate-limit}),
     * which wins over what the provider says; 0 when not set.
     */
    public AccountLimitsRefresh(CallLog journal, ProviderGateway gateway, RateBudget budget, Clock clock,
                                int configuredPerMinute) {
        this(journal, gateway, budget, clock, configuredPerMinute, 0);
    }

    /**
     * {@code configuredPerDay}: the account's daily requests as the operator set them ({@code topup.daily-limit}),
     * which lower what the provider says (never raise it); 0 when not set. The minute's setting never changes the day's.
     */
    public AccountLimitsRefresh(CallLog journal, ProviderGateway gateway, RateBudget budget, Clock clock,
                                int configuredPerMinute, long configuredPerDay) {
        this.configuredPerMinute = configuredPerMinute;
        this.configuredPerDay = configuredPerDay;
        this.journal = journal;
        this.gateway = gateway;
        this.budget = budget;
        this.clock = clock;
    }

    /**
     * Sets the budget's limits from the account and forgets recorded calls too old to matter to
     * any window. Refused credentials and transient failures are thrown to the caller.
     */
    public void refreshLimits() {
        journal.pruneCalls(clock.instant().minus(Duration.ofDays(2)));
        Profile profile;
        try {
            profile = gateway.profile();
        } catch (ProviderException e) {
            boolean noProfileInDialect = HttpProviderClient.NOT_IN_DIALECT.equals(e.code()); // never sent
            if (!noProfileInDialect && (e.stopsSubmission() || e.transientFailure())) {
                throw e;
            }
            // A provider without a usable profile (or a dialect without one, e.g. Digiflazz's): the
            // tier from the balance record will do, the smallest one when it names none.
            int perMinute = configuredPerMinute > 0 ? configuredPerMinute
                    : Tier.parse(gateway.checkBalance().tier()).orElse(Tier.BASIC).requestsPerMinute();
            budget.setLimits(perMinute, configuredPerDay > 0 ? configuredPerDay : UNKNOWN_DAILY_LIMIT, 0);
            return;
        }
        ApiUsage usage = profile.apiUsage();
        int providersPerMinute = usage != null && usage.limitPerMinute() > 0 ? usage.limitPerMinute() : 0;
        long providersPerDay = usage != null && usage.limitPerDay() > 0 ? usage.limitPerDay() : 0;
        // A setting may lower what the provider allows (an account shared with another system), never
        // raise it: the provider's own figure is the limit the rate promise is about.
        int perMinute = configuredPerMinute > 0
                ? (providersPerMinute > 0 ? Math.min(configuredPerMinute, providersPerMinute) : configuredPerMinute)
                : providersPerMinute > 0 ? providersPerMinute
                : Tier.parse(profile.tier()).orElse(Tier.BASIC).requestsPerMinute();
        long perDay = configuredPerDay > 0
                ? (providersPerDay > 0 ? Math.min(configuredPerDay, providersPerDay) : configuredPerDay)
                : providersPerDay > 0 ? providersPerDay : UNKNOWN_DAILY_LIMIT;
        budget.setLimits(perMinute, perDay, usage == null ? 0 : usage.today());
    }
}
