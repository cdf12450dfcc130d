package org.topupbatch.app;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.function.IntConsumer;
import org.apache.camel.CamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.batch.BatchIntake;
import org.topupbatch.batch.CachedPriceCatalog;
import org.topupbatch.batch.CustomerRules;
import org.topupbatch.journal.AccountLimits;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalInUseException;
import org.topupbatch.order.OrderSubmitter;
import org.topupbatch.order.DueOrders;
import org.topupbatch.order.OrderHistorySearch;
import org.topupbatch.order.PendingOrderPolling;
import org.topupbatch.order.TrackedOrders;
import org.topupbatch.order.UnknownOrderReconciliation;
import org.topupbatch.order.WebhookAuthenticator;
import org.topupbatch.order.WebhookReceiver;
import org.topupbatch.provider.ApiUsage;
import org.topupbatch.provider.HttpProviderClient;
import org.topupbatch.provider.Profile;
import org.topupbatch.provider.ProviderEndpoint;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.Signer;
import org.topupbatch.provider.Tier;
import org.topupbatch.report.BatchReporter;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.report.RowFinalEvents;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * Builds the product's parts from the settings and binds the ones the routes call, by name:
 * batchIntake, orderSubmitter, dueOrders, unknownOrderReconciliation, pendingOrderPolling, webhookReceiver, batchReporter, runMonitor,
 * inboxSnapshot, accountLimits, submitWorkers.
 */
public final class Components implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Components.class);
    /** Until the account says otherwise, assume the smallest tier. */
    private static final long UNKNOWN_DAILY_LIMIT = 10_000;

    private final Settings settings;
    private final Clock clock;
    private final IntConsumer exit;
    private SandboxProvider sandbox;
    private Journal journal;
    private HttpProviderClient client;
    private ProviderGateway gateway;
    private RateBudget budget;
    private StoppableGate gate;
    private OrderSubmitter submitter;
    private ExecutorService workers;

    public Components(Settings settings, Clock clock, IntConsumer exit) {
        this.settings = settings;
        this.clock = clock;
        this.exit = exit;
    }

    /** Builds everything before Camel configures its routes (which look the beans up by name). */
    public void configure(CamelContext camel) {
        CustomerRules rules = loadRules();
        journal = openJournal(camel);
        String baseUrl = settings.baseUrl();
        if (settings.embeddedSandbox()) {
            sandbox = startSandbox();
            baseUrl = sandbox.baseUrl();
        }
        // A request is over by the pool lease, the connect and the answer timeouts at the latest.
        Duration longestCall = settings.connectTimeout().multipliedBy(2).plus(settings.responseTimeout());
        budget = RateBudget.restore(clock, journal, longestCall, RateBudget.Waiter.REAL,
                new AccountLimits(Tier.BASIC.requestsPerMinute(), UNKNOWN_DAILY_LIMIT, 0, clock.instant()));
        ProviderEndpoint endpoint = new ProviderEndpoint(baseUrl, new Signer(settings.apiKey(), settings.apiSecret()),
                settings.connectTimeout(), settings.responseTimeout());
        gate = new StoppableGate(budget);
        client = new HttpProviderClient(camel, endpoint, gate);
        gateway = new ProviderGateway(client, budget);

        submitter = new OrderSubmitter(journal, gateway, clock);
        // SFTP hook: binds the inbox relay and uploads reports when they go to a server
        org.topupbatch.report.ReportDelivery delivery = org.topupbatch.sftp.SftpWiring.bind(settings, camel);
        BatchReporter reporter = new BatchReporter(journal, gateway, new ReportWriter(settings.reports(), delivery), clock,
                settings.pendingTimeout());
        InboxSnapshot snapshot = settings.mode() == Settings.Mode.ONCE
                ? InboxSnapshot.takenNow(settings.inbox()) : InboxSnapshot.everything(settings.inbox());
        CachedPriceCatalog catalog = new CachedPriceCatalog(gateway::priceList);

        bind(camel, "inboxSnapshot", snapshot);
        bind(camel, "batchIntake", new BatchIntake(journal, gateway, catalog, rules, settings.balancePolicy(),
                settings.data().resolve("archive"), clock, ProviderName.of(settings)));
        bind(camel, "orderSubmitter", submitter);
        WebhookAuthenticator webhooks = new WebhookAuthenticator(webhookSecret());
        boolean webhooksSettle = settings.webhookEnabled() && webhooks.verifies();
        TrackedOrders tracked = new TrackedOrders(journal, clock, webhooksSettle);
        OrderHistorySearch history = new OrderHistorySearch(gateway, tracked, clock);
        bind(camel, "dueOrders", new DueOrders(journal, clock, webhooksSettle));
        bind(camel, "unknownOrderReconciliation", new UnknownOrderReconciliation(gateway, history, tracked));
        bind(camel, "pendingOrderPolling", new PendingOrderPolling(gateway, history, tracked));
        WebhookReceiver receiver = new WebhookReceiver(journal, webhooks, clock);
        bind(camel, "webhookReceiver", receiver);
        addService(camel, receiver); // its last log summary at shutdown
        bind(camel, "batchReporter", reporter);
        bind(camel, "runMonitor", new RunMonitor(snapshot, journal, submitter, reporter, exit));
        bind(camel, "accountLimits", this);
        bind(camel, "progressLog", new ProgressLog(settings, journal, budget, clock)); // routes/progress.yaml
        workers = camel.getExecutorServiceManager().newFixedThreadPool(this, "submit", settings.submitConcurrency());
        bind(camel, "submitWorkers", workers);
        LOG.info("topup-batch {} on {}", settings, settings.embeddedSandbox() ? "the embedded sandbox at " + baseUrl : baseUrl);
    }

    /** The embedded sandbox signs with its own (demo) webhook secret unless one is set: both sides use the same. */
    private String webhookSecret() {
        if (sandbox != null) {
            if (settings.webhookSecret() == null && settings.webhookEnabled()) {
                LOG.info("Webhooks are verified with the embedded sandbox's demo webhook secret");
            }
            return sandbox.config().webhookSecret();
        }
        return settings.webhookSecret();
    }

    private static void addService(CamelContext camel, Object service) {
        try {
            camel.addService(service, true, true);
        } catch (Exception e) {
            throw new IllegalStateException("cannot register " + service, e);
        }
    }

    private static void bind(CamelContext camel, String name, Object bean) {
        camel.getRegistry().bind(name, bean);
    }

    /** The journal, or a refusal naming the setting that points at it. */
    private Journal openJournal(CamelContext camel) {
        try {
            JdbcJournal opened = JdbcJournal.open(settings.data(), settings.dbUrl(), settings.dbUser(), settings.dbPassword());
            opened.onRowsFinal(new RowFinalEvents(camel)); // the report route aggregates them per batch
            return opened;
        } catch (JournalInUseException e) {
            throw new StartupRefusal(e.getMessage());
        } catch (JournalException e) {
            if (settings.dbUrl() == null) {
                throw new StartupRefusal("topup.data " + settings.data().toAbsolutePath() + ": " + e.getMessage()
                        + " (set TOPUP_DATA to a folder this user may write)");
            }
            throw new StartupRefusal("topup.db.url: " + e.getMessage()
                    + " (check TOPUP_DB_URL, TOPUP_DB_USER and TOPUP_DB_PASSWORD)");
        }
    }

    private CustomerRules loadRules() {
        if (settings.customerRules() == null) {
            return CustomerRules.loadDefault();
        }
        try {
            return CustomerRules.load(java.nio.file.Path.of(settings.customerRules()));
        } catch (RuntimeException e) {
            throw new SettingsException("topup.customer-rules: " + e.getMessage());
        }
    }

    private SandboxProvider startSandbox() {
        SandboxConfig config = SandboxConfig.fromLookup(SettingsLookup.standard())
                .setApiKey(settings.apiKey()).setApiSecret(settings.apiSecret()); // the embedded one always matches
        if (settings.webhookSecret() != null) {
            config.setWebhookSecret(settings.webhookSecret());
        }
        if (settings.webhookEnabled() && (config.webhookUrl() == null || config.webhookUrl().isBlank())) {
            config.setWebhookUrl("http://127.0.0.1:" + settings.webhookPort() + settings.webhookPath());
        }
        SandboxProvider started = SandboxProvider.start(config, 0);
        LOG.info("Embedded sandbox provider listening on {}", started.baseUrl());
        LOG.warn("EMBEDDED SANDBOX IN USE: no real order will be placed. To order from your provider set "
                + "TOPUP_BASE_URL, TOPUP_API_KEY and TOPUP_API_SECRET.");
        return started;
    }

    /**
     * The start-up checks, run once Camel is up and before any route starts: the provider answers
     * and accepts the credentials, the rate budget knows the account's limits, and orders caught
     * mid-flight by a crash become unknown (to be reconciled). Returns a fatal problem, or null.
     */
    public String startUp(CamelContext camel) {
        try {
            refreshLimits();
        } catch (ProviderException e) {
            if (ProviderGateway.stopsSubmission(e)) {
                return "the provider refused the credentials (" + e.code() + ")";
            }
            return "the provider at " + client.endpoint().baseUrl() + " could not be reached: " + e.getMessage();
        }
        int unknown = journal.sendingToUnknown(clock.instant());
        if (unknown > 0) {
            LOG.warn("{} orders were being sent when the last run stopped; reconciling them with the provider", unknown);
        }
        return null;
    }

    /**
     * Reads the account's rate limits from its profile (or its tier when the profile says nothing),
     * and forgets recorded calls too old to matter to any window.
     */
    public void refreshLimits() {
        journal.pruneCalls(clock.instant().minus(Duration.ofDays(2)));
        Profile profile;
        try {
            profile = gateway.profile();
        } catch (ProviderException e) {
            if (ProviderGateway.stopsSubmission(e) || ProviderGateway.transientFailure(e)) {
                throw e;
            }
            // A provider without a usable profile: the tier from the balance record will do.
            String tierWord = gateway.checkBalance().tier();
            Tier tier = Tier.parse(tierWord).orElse(Tier.BASIC);
            budget.setLimits(tier.requestsPerMinute(), UNKNOWN_DAILY_LIMIT, 0);
            return;
        }
        ApiUsage usage = profile.apiUsage();
        int perMinute = usage != null && usage.limitPerMinute() > 0 ? usage.limitPerMinute()
                : Tier.parse(profile.tier()).orElse(Tier.BASIC).requestsPerMinute();
        long perDay = usage != null && usage.limitPerDay() > 0 ? usage.limitPerDay() : UNKNOWN_DAILY_LIMIT;
        budget.setLimits(perMinute, perDay, usage == null ? 0 : usage.today());
    }

    /**
     * The run is stopping: no new row is taken and no new provider request starts; requests on the
     * wire finish and their outcomes are journaled. Returns how many requests were on the wire.
     */
    public int stopTaking() {
        if (submitter == null) {
            return 0;
        }
        submitter.refuseNewRows();
        return gate.stop();
    }

    /** After a stop: how it ended, in one line for the operator. */
    public String stopSummary(int requestsFinishing) {
        int onWire = gate == null ? 0 : gate.inFlight();
        int sending = journal == null ? 0 : journal.rowsInState(java.util.EnumSet.of(org.topupbatch.journal.RowState.SENDING),
                100_000).size();
        String finished = requestsFinishing + (requestsFinishing == 1 ? " request" : " requests") + " finished";
        if (onWire == 0 && sending == 0) {
            return finished + ", nothing left in flight";
        }
        return finished + ", " + sending + " orders left in SENDING (the next start looks them up at the provider)";
    }

    /**
     * The journal opened by {@link #configure}. The embedded H2 database admits one process at a
     * time, so whoever shares the process (the route tests) reads the journal through this one.
     */
    public Journal journal() {
        return journal;
    }

    @Override
    public void close() {
        if (workers != null) {
            workers.shutdownNow();
            workers = null;
        }
        if (client != null) {
            client.close();
            client = null;
        }
        if (journal != null) {
            journal.close();
            journal = null;
        }
        if (sandbox != null) {
            sandbox.close();
            sandbox = null;
        }
    }
}
