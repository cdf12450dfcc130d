package org.topupbatch.run;

import java.time.Clock;
import org.apache.camel.CamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.Journal;
import org.topupbatch.observe.ProviderAccess;
import org.topupbatch.provider.AccountLimitsRefresh;
import org.topupbatch.provider.ProviderException;

/**
 * The start-up checks, run once Camel is up and before any route starts: the provider answers and
 * accepts the credentials, the rate budget knows the account's limits, and orders caught
 * mid-flight by a crash become unknown (to be reconciled).
 */
public final class StartupChecks {

    private static final Logger LOG = LoggerFactory.getLogger(StartupChecks.class);
    private static final String PROVIDER_ROUTE = "provider";

    private final AccountLimitsRefresh accountLimits;
    private final Journal journal;
    private final String providerBaseUrl;
    private final Clock clock;
    private final ProviderAccess providerAccess;
    private final CamelContext camel;

    public StartupChecks(AccountLimitsRefresh accountLimits, Journal journal, String providerBaseUrl, Clock clock,
                  ProviderAccess providerAccess, CamelContext camel) {
        this.camel = camel;
        this.accountLimits = accountLimits;
        this.journal = journal;
        this.providerBaseUrl = providerBaseUrl;
        this.clock = clock;
        this.providerAccess = providerAccess;
    }

    /** Returns the fatal problem in one line, or null when the run may start its routes. */
    public String problem() {
        try {
            // every provider call below goes through it; the other routes start after these checks
            camel.getRouteController().startRoute(PROVIDER_ROUTE);
        } catch (Exception e) {
            return "the provider route did not start: " + e.getMessage();
        }
        try {
            accountLimits.refreshLimits();
        } catch (ProviderException e) {
            if (e.stopsSubmission()) {
                providerAccess.refused("the provider refused the credentials (" + e.code() + ")"); // readiness DOWN
                return "the provider refused the credentials (" + e.code() + ")";
            }
            return "the provider at " + providerBaseUrl + " could not be reached: " + e.getMessage();
        }
        int unknown = journal.sendingToUnknown(clock.instant());
        if (unknown > 0) {
            LOG.warn("{} orders were being sent when the last run stopped; reconciling them with the provider", unknown);
        }
        return null;
    }
}
