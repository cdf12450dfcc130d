package org.topupbatch.config;

import java.time.Clock;
import java.util.function.IntConsumer;
import org.apache.camel.BindToRegistry;
import org.topupbatch.run.GracefulStop;
import org.topupbatch.run.ProgressLog;
import org.topupbatch.run.RunMonitor;
import org.topupbatch.run.StartupChecks;
import org.topupbatch.settings.Settings;

/**
 * The run's lifecycle: the start-up checks, the progress line (routes/progress.yaml), once mode's
 * end of the run (routes/run-once.yaml), the clean stop, and what taking over and stepping down
 * mean on two nodes.
 */
public final class RunConfiguration extends AreaConfiguration {

    private final Settings settings;
    private final Clock clock;
    private final IntConsumer exit;
    private final JournalConfiguration journal;
    private final ProviderConfiguration provider;
    private final ObserveConfiguration observe;
    private final IntakeConfiguration intake;
    private final SubmitConfiguration submit;
    private final ReportConfiguration report;
    private StartupChecks startupChecks;
    private GracefulStop gracefulStop;

    /** @param exit how the run-once route ends the run with an exit code */
    public RunConfiguration(Settings settings, Clock clock, IntConsumer exit, JournalConfiguration journal,
                            ProviderConfiguration provider, ObserveConfiguration observe, IntakeConfiguration intake,
                            SubmitConfiguration submit, ReportConfiguration report) {
        this.settings = settings;
        this.clock = clock;
        this.exit = exit;
        this.journal = journal;
        this.provider = provider;
        this.observe = observe;
        this.intake = intake;
        this.submit = submit;
        this.report = report;
    }

    /** One log line per active batch at a steady pace. */
    @BindToRegistry("inboxWatch")
    public org.topupbatch.run.InboxWatch inboxWatch() {
        return new org.topupbatch.run.InboxWatch(settings.folders().inbox(), settings.inboxShown(),
                notice -> report.notifications().tell(notice));
    }

    @BindToRegistry("progressLog")
    public ProgressLog progressLog() {
        org.topupbatch.journal.Journal j = journal.journal();
        return new ProgressLog(settings.pickUp(), settings.inboxShown(), settings.webhook(),
                org.topupbatch.settings.AccountList.names(settings), j.status(), j.reporting(), j.outages(), provider.budget(), clock);
    }

    @BindToRegistry("runMonitor")
    public RunMonitor runMonitor() {
        return new RunMonitor(intake.inboxSnapshot(), journal.journal().submission(), submit.orderSubmitter(), report.batchReporter(), exit,
                intake.batchIntake()::setAside);
    }

    @BindToRegistry("startupChecks")
    public synchronized StartupChecks startupChecks() {
        if (startupChecks == null) {
            startupChecks = new StartupChecks(provider.accountLimits(), journal.journal().submission(),
                    journal.journal().tracking(), provider.baseUrl(), clock, observe.observability().providerAccess(), camel)
                    .accountsApart(accountsApart ? led.configured() : java.util.List.of());
        }
        return startupChecks;
    }

    @BindToRegistry("gracefulStop")
    public synchronized GracefulStop gracefulStop() {
        if (gracefulStop == null) {
            gracefulStop = new GracefulStop(submit.orderSubmitter(), provider.gates(), journal.journal().submission());
        }
        return gracefulStop;
    }

    /**
     * A standby becoming leader: the rate budget judged again from the shared call record (the
     * old leader's calls count), then the start-up checks. Returns a fatal problem, or null.
     */
    public String takeLeadership() {
        if (!accountsApart) {
            gracefulStop().resumeTaking(); // a node that stepped down before (journal database restarted) leads again
            provider.budgets().forEach(org.topupbatch.provider.RateBudget::restoreFromJournal);
        } else {
            // each account led apart: the budgets of the accounts this node sends at are its leads' (a pause
            // after a 429 there must not be forgotten); the others are judged again from the shared record
            provider.accounts().forEach((name, parts) -> {
                if (!led.leads(name)) {
                    parts.budget.restoreFromJournal();
                }
            });
        }
        return startupChecks().problem();
    }

    /**
     * Leadership lost: no new provider request starts (requests on the wire finish). With each account led
     * apart, the journal's lock says nothing about sending: each account's lead stops its own orders.
     */
    public void stepDown() {
        if (!accountsApart) {
            gracefulStop().stopTaking();
        }
    }

    /** Several accounts on two nodes: each account has a leader of its own (docs/two-nodes.md#two-nodes). */
    private boolean accountsApart;
    private org.topupbatch.cluster.AccountsLed led = org.topupbatch.cluster.AccountsLed.EVERY;

    void ledBy(org.topupbatch.cluster.AccountsLed accounts) {
        this.led = accounts;
        this.accountsApart = accounts.apart();
    }

    /** How long a node handing an account's lead over waits for its orders on the wire there: the longest call. */
    private java.time.Duration longestCall() {
        return settings.submit().connectTimeout().multipliedBy(2).plus(settings.submit().responseTimeout());
    }

    /**
     * This node takes the lead of one account: its rate budget judged again from the shared call record
     * (the last leader's calls count), and its orders left SENDING by the last leader made UNKNOWN.
     */
    public void takeAccountLead(String account) {
        journal.journal().submission().fillRowAccounts(); // rows routed before the journal kept each row's account
        AccountParts parts = provider.accounts().get(account);
        // this node's own requests there first (it may take back a lead it lost a moment ago): their rows
        // are journaled by their answers, not made UNKNOWN under them
        waitAtMostTheLongestCall(() -> parts.gate.inFlight() == 0);
        parts.budget.restoreFromJournal();
        int unknown = journal.journal().tracking().sendingToUnknownAt(clock.instant(), account);
        if (unknown > 0) {
            org.slf4j.LoggerFactory.getLogger(RunConfiguration.class).warn("{} orders at account {} were being sent"
                    + " when its last leader stopped; looking them up there", unknown, account);
        }
    }

    /** Handing an account's lead over: waits until this node's orders on the wire there are journaled. */
    public boolean awaitAccountQuiet(String account) {
        return waitAtMostTheLongestCall(() -> journal.journal().tracking().sendingAt(account) == 0);
    }

    /** Looks every tenth of a second until {@code done}, at most the longest call; whether it is done. */
    private boolean waitAtMostTheLongestCall(java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + longestCall().toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
