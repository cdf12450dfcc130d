package org.topupbatch.run;

import java.time.Clock;
import org.apache.camel.CamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.SubmissionJournal;
import org.topupbatch.journal.TrackingJournal;
import org.topupbatch.observe.ProviderAccess;
import org.topupbatch.provider.Accounts;
import org.topupbatch.provider.ProviderException;

/**
 * The start-up checks, run once Camel is up and before any route starts: the provider answers and
 * accepts the credentials, the rate budget knows the account's limits, and orders caught
 * mid-flight by a crash become unknown (to be reconciled).
 */
public final class StartupChecks {

    private static final Logger LOG = LoggerFactory.getLogger(StartupChecks.class);
    private static final String PROVIDER_ROUTE = "provider";

    private final Accounts accountLimits;
    private final SubmissionJournal submission;
    private final TrackingJournal tracking;
    private final String providerBaseUrl;
    private final Clock clock;
    private final ProviderAccess providerAccess;
    private final CamelContext camel;

    public StartupChecks(Accounts accountLimits, SubmissionJournal submission, TrackingJournal tracking, String providerBaseUrl,
                  Clock clock,
                  ProviderAccess providerAccess, CamelContext camel) {
        this.camel = camel;
        this.accountLimits = accountLimits;
        this.submission = submission;
        this.tracking = tracking;
        this.providerBaseUrl = providerBaseUrl;
        this.clock = clock;
        this.providerAccess = providerAccess;
    }

    /** When pending orders of earlier runs are looked up at the latest: once the webhook route listens. */
    static final java.time.Duration PENDING_CHECK_AFTER_START = java.time.Duration.ofSeconds(5);

    /** Several accounts on two nodes, each led apart: the accounts of topup.providers; empty otherwise. */
    private java.util.List<String> accountsApart = java.util.List.of();

    /**
     * Several accounts on two nodes, each led apart: orders left SENDING at an account of {@code accounts}
     * are made UNKNOWN by the node taking that account's lead, not here (the other node may be sending
     * them right now); here only those at no account of this run.
     */
    public StartupChecks accountsApart(java.util.List<String> accounts) {
        this.accountsApart = java.util.List.copyOf(accounts);
        return this;
    }

    /**
     * Orders still waiting for an outcome whose journaled account is of a kind no account now set is:
     * sent at the unnamed account of topup.base-url while topup.providers is set now, or at a named account
     * while only the unnamed one is set. This run could look them up only at the wrong place, so it does not
     * start. (An order at a named account topup.providers no longer lists waits, as AccountsLed says.)
     */
    String switchedWithOrdersInFlight() {
        java.util.List<String> now = accountLimits.names();
        boolean unnamedNow = now.contains(null);
        boolean namedNow = now.stream().anyMatch(java.util.Objects::nonNull);
        java.util.Map<Boolean, Long> strayByUnnamed = submission.rowsInState(java.util.EnumSet.of(
                        org.topupbatch.journal.RowState.SENDING, org.topupbatch.journal.RowState.PENDING,
                        org.topupbatch.journal.RowState.UNKNOWN), 100_000).stream()
                .map(row -> row.account() == null)
                .filter(unnamed -> unnamed ? !unnamedNow : !namedNow)
                .collect(java.util.stream.Collectors.partitioningBy(unnamed -> unnamed, java.util.stream.Collectors.counting()));
        for (boolean unnamed : new boolean[] {true, false}) {
            long stray = strayByUnnamed.get(unnamed);
            if (stray > 0) {
                return stray + " orders sent " + (unnamed ? "before topup.providers was set" : "with topup.providers set")
                        + " still wait for their outcome; finish them with the settings they were sent with, then switch"
                        + " (docs/accounts-and-dialects.md#several-accounts)";
            }
        }
        return null;
    }

    /** Returns the fatal problem in one line, or null when the run may start its routes. */
    public String problem() {
        String switched = switchedWithOrdersInFlight();
        if (switched != null) {
            return switched;
        }
        try {
            // every provider call below goes through it; the other routes start after these checks
            camel.getRouteController().startRoute(PROVIDER_ROUTE);
        } catch (Exception e) {
            return "the provider route did not start: " + e.getMessage();
        }
        try {
            accountLimits.refreshLimits();
        } catch (ProviderException e) {
            // with several accounts the failure names its account ("account dfz: ...")
            String message = e.getMessage() == null ? "" : e.getMessage();
            String who = message.startsWith("account ") && message.indexOf(':') > 0
                    ? message.substring(0, message.indexOf(':')) : "the provider";
            if (e.stopsSubmission()) {
                providerAccess.refused(who + " refused the credentials (" + e.code() + ")"); // readiness DOWN
                return who + " refused the credentials (" + e.code() + ")";
            }
            return (who.equals("the provider") ? "the provider at " + providerBaseUrl : who) + " could not be reached: " + message;
        }
        int unknown;
        if (accountsApart.isEmpty()) {
            unknown = tracking.sendingToUnknown(clock.instant());
        } else {
            submission.fillRowAccounts(); // rows routed before the journal kept each row's account
            unknown = tracking.sendingToUnknownElsewhere(clock.instant(), accountsApart);
        }
        if (unknown > 0) {
            LOG.warn("{} orders were being sent when the last run stopped; reconciling them with the provider", unknown);
        }
        // webhooks the provider sent while no run listened (or before the webhook route ran) are lost:
        // left pending, such an order would wait for its next scheduled look-up, up to 5 minutes away
        int pending = tracking.pendingDueBy(clock.instant().plus(PENDING_CHECK_AFTER_START));
        if (pending > 0) {
            LOG.info("{} orders left pending by the last run are looked up within {} s, in case their webhook"
                    + " came while no run listened", pending, PENDING_CHECK_AFTER_START.toSeconds());
        }
        return null;
    }
}
