package org.topupbatch.config;

import org.topupbatch.run.ProgressLog;
import org.topupbatch.run.ProviderSwitchCheck;
import org.topupbatch.run.RunMonitor;
import org.topupbatch.run.StartupRefusal;
import org.topupbatch.settings.ProviderName;
import org.topupbatch.settings.SettingsException;
import org.topupbatch.settings.SettingsLookup;

import org.topupbatch.run.GracefulStop;
import org.topupbatch.run.InboxSnapshot;
import org.topupbatch.settings.Settings;
import org.topupbatch.run.StartupChecks;
import org.topupbatch.run.StoppableGate;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.function.IntConsumer;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.intake.BatchIntake;
import org.topupbatch.intake.CachedPriceCatalog;
import org.topupbatch.intake.CustomerRules;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalInUseException;
import org.topupbatch.submit.OrderSubmitter;
import org.topupbatch.observe.Observability;
import org.topupbatch.track.DueOrders;
import org.topupbatch.track.OrderHistorySearch;
import org.topupbatch.track.PendingOrderPolling;
import org.topupbatch.track.TrackedOrders;
import org.topupbatch.track.UnknownOrderReconciliation;
import org.topupbatch.track.WebhookAuthenticator;
import org.topupbatch.track.WebhookReceiver;
import org.topupbatch.provider.AccountLimitsRefresh;
import org.topupbatch.provider.HttpProviderClient;
import org.topupbatch.provider.ProviderEndpoint;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.provider.ProviderRouteBeans;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.Signer;
import org.topupbatch.provider.Tier;
import org.topupbatch.report.BatchReporter;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.report.RowFinalEvents;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxStateException;

/**
 * Where every bean comes from: Camel Main binds each {@link BindToRegistry} method's result under
 * its name, before the routes of {@code routes/} are configured (they refer to the beans by name).
 * A new bean is one more method here.
 *
 * <p>The parts the beans share (journal, provider client, rate budget, ...) are built once, on
 * first use, so that the binding order Camel picks does not matter. A journal that cannot be opened,
 * or a bad customer rules file, stops the start with a {@link StartupRefusal} or
 * {@link SettingsException} before any route exists. The settings come in already checked
 * ({@link Settings#load}); the embedded sandbox runs exactly when they chose it
 * ({@link Settings#embeddedSandbox()}, decided by {@link ProviderChoice}).
 */
public final class TopupConfiguration implements CamelConfiguration, CamelContextAware, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopupConfiguration.class);
    static final String SANDBOX_WARNING = "EMBEDDED SANDBOX IN USE: no real order will be placed. To order from your"
            + " provider set TOPUP_BASE_URL, TOPUP_API_KEY and TOPUP_API_SECRET.";

    private final Settings settings;
    private final Clock clock;
    private final IntConsumer exit;
    private CamelContext camel;

    private Journal journal;
    /** The journal being opened beside Camel's own start (see {@link #openJournalEarly}). */
    private java.util.concurrent.CompletableFuture<JdbcJournal> opening;
    private SandboxProvider sandbox;
    private RateBudget budget;
    private StoppableGate gate;
    private HttpProviderClient client;
    private org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager providerPool;
    private ProviderGateway gateway;
    private OrderSubmitter submitter;
    private BatchReporter reporter;
    private InboxSnapshot snapshot;
    private WebhookAuthenticator webhooks;
    private AccountLimitsRefresh accountLimits;
    private ExecutorService workers;
    private StartupChecks startupChecks;
    private GracefulStop gracefulStop;
    private Observability observability;
    private TrackedOrders trackedOrders;
    private OrderHistorySearch historySearch;

    /** @param exit how the run-once route ends the run with an exit code */
    public TopupConfiguration(Settings settings, Clock clock, IntConsumer exit) {
        this.settings = settings;
        this.clock = clock;
        this.exit = exit;
        if (settings.embeddedSandbox()) {
            // the first line of a sandbox run, before anything the sandbox or Camel says
            LOG.warn(SANDBOX_WARNING);
        }
    }

    /**
     * Starts opening (and migrating) the journal on a thread of its own while Camel Main loads its
     * routes: about a second of every start that no longer waits in line. Nothing changes in what
     * a run may do: every bean that uses the journal waits for it in {@link #journal()}, which
     * also fails the start with the same refusal when it cannot be opened.
     */
    public void openJournalEarly() {
        if (journal == null && opening == null) {
            opening = java.util.concurrent.CompletableFuture.supplyAsync(this::openJdbcJournal,
                    r -> new Thread(r, "journal-open").start());
        }
    }

    @Override
    public void setCamelContext(CamelContext camelContext) {
        this.camel = camelContext;
    }

    @Override
    public CamelContext getCamelContext() {
        return camel;
    }

    @Override
    public void configure(CamelContext camelContext) {
        LOG.info("topup-batch {} on {}", settings,
                sandbox != null ? "the embedded sandbox at " + sandbox.baseUrl() : settings.baseUrl());
    }

    // ---- the beans the routes call, by name -------------------------------------------------

    /** The intake's file filter: in once mode only the batches present at start. */
    @BindToRegistry("inboxSnapshot")
    public InboxSnapshot inboxSnapshot() {
        if (snapshot == null) {
            snapshot = settings.mode() == Settings.Mode.ONCE
                    ? InboxSnapshot.takenNow(settings.inbox()) : InboxSnapshot.everything(settings.inbox());
        }
        return snapshot;
    }

    @BindToRegistry("batchIntake")
    public BatchIntake batchIntake() {
        CustomerRules rules = customerRules();
        return new BatchIntake(journal(), gateway(), new CachedPriceCatalog(gateway()::priceList), rules,
                settings.balancePolicy(), settings.data().resolve("archive"), clock, ProviderName.of(settings));
    }

    @BindToRegistry("orderSubmitter")
    public OrderSubmitter orderSubmitter() {
        if (submitter == null) {
            submitter = new OrderSubmitter(journal(), gateway(), clock);
        }
        return submitter;
    }

    /** The submit route's steps: which rows are due, marking them SENDING, the create-order request. */
    @BindToRegistry("orderQueue")
    public org.topupbatch.submit.OrderQueue orderQueue() {
        return orderSubmitter().queue();
    }

    /** The submit route's last step: what the provider's answer (or its absence) means for the row. */
    @BindToRegistry("submitOutcomes")
    public org.topupbatch.submit.SubmitOutcomes submitOutcomes() {
        return orderSubmitter().outcomes();
    }

    /** The split's worker threads: enough requests in flight that latency never caps the rate. */
    @BindToRegistry("submitWorkers")
    public ExecutorService submitWorkers() {
        if (workers == null) {
            workers = camel.getExecutorServiceManager().newFixedThreadPool(this, "submit", settings.submitConcurrency());
        }
        return workers;
    }

    /** Tracking: which orders are due for a look-up, reconciling unknown ones, polling pending ones. */
    @BindToRegistry("dueOrders")
    public DueOrders dueOrders() {
        return new DueOrders(journal(), clock, webhooksSettle());
    }

    @BindToRegistry("unknownOrderReconciliation")
    public UnknownOrderReconciliation unknownOrderReconciliation() {
        return new UnknownOrderReconciliation(gateway(), historySearch(), trackedOrders());
    }

    @BindToRegistry("pendingOrderPolling")
    public PendingOrderPolling pendingOrderPolling() {
        return new PendingOrderPolling(gateway(), historySearch(), trackedOrders());
    }

    /** One log line per active batch at a steady pace (routes/progress.yaml). */
    @BindToRegistry("progressLog")
    public ProgressLog progressLog() {
        return new ProgressLog(settings, journal(), budget(), clock);
    }

    @BindToRegistry("webhookReceiver")
    public WebhookReceiver webhookReceiver() throws Exception {
        WebhookReceiver receiver = new WebhookReceiver(journal(), webhookAuthenticator(), clock);
        camel.addService(receiver, true, true); // its last log summary at shutdown
        return receiver;
    }

    @BindToRegistry("batchReporter")
    public BatchReporter batchReporter() {
        if (reporter == null) {
            // SFTP hook: binds the inbox relay, and uploads reports when they go to a server
            org.topupbatch.report.ReportDelivery delivery = org.topupbatch.sftp.SftpWiring.bind(settings, camel);
            reporter = new BatchReporter(journal(), gateway(), new ReportWriter(settings.reports(), delivery), clock,
                    settings.pendingTimeout());
        }
        return reporter;
    }

    @BindToRegistry("runMonitor")
    public RunMonitor runMonitor() {
        return new RunMonitor(inboxSnapshot(), journal(), orderSubmitter(), batchReporter(), exit);
    }

    @BindToRegistry("accountLimits")
    public AccountLimitsRefresh accountLimits() {
        if (accountLimits == null) {
            accountLimits = new AccountLimitsRefresh(journal(), gateway(), budget(), clock);
        }
        return accountLimits;
    }

    // ---- the beans the run itself uses (TopupApplication, the route tests) --------------------

    @BindToRegistry("startupChecks")
    public StartupChecks startupChecks() {
        if (startupChecks == null) {
            startupChecks = new StartupChecks(accountLimits(), journal(), providerClient().endpoint().baseUrl(), clock,
                    observability().providerAccess(), camel);
        }
        return startupChecks;
    }

    @BindToRegistry("gracefulStop")
    public GracefulStop gracefulStop() {
        if (gracefulStop == null) {
            gracefulStop = new GracefulStop(orderSubmitter(), gate(), journal());
        }
        return gracefulStop;
    }

    /**
     * The journal, or a refusal naming the setting that points at it. The embedded H2 database
     * admits one process at a time, so whoever shares the process reads the journal through this one.
     */
    @BindToRegistry("journal")
    public Journal journal() {
        if (journal == null) {
            journal = openJournal();
        }
        return journal;
    }

    // ---- two nodes (org.topupbatch.cluster.TwoNodes): the leader's start-up work runs on taking over

    /**
     * A standby becoming leader: the rate budget judged again from the shared call record (the
     * old leader's calls count), then the start-up checks. Returns a fatal problem, or null.
     */
    public String takeLeadership() {
        gracefulStop().resumeTaking(); // a node that stepped down before (journal database restarted) leads again
        budget().restoreFromJournal();
        return startupChecks().problem();
    }

    /** Leadership lost: no new provider request starts (requests on the wire finish). */
    public void stepDown() {
        gracefulStop().stopTaking();
    }

    // ---- shared parts ----------------------------------------------------------------------

    /** Dashboard, health and metrics on the management port (README, "Dashboard, health and metrics"). */
    private Observability observability() {
        if (observability == null) {
            observability = Observability.bind(camel, settings, journal(), budget(), clock, ProviderName.of(settings));
        }
        return observability;
    }

    /** A signed webhook settles an order, so a pending order's first look-up can wait for it. */
    private boolean webhooksSettle() {
        return settings.webhookEnabled() && webhookAuthenticator().verifies();
    }

    private TrackedOrders trackedOrders() {
        if (trackedOrders == null) {
            trackedOrders = new TrackedOrders(journal(), clock, webhooksSettle());
        }
        return trackedOrders;
    }

    private OrderHistorySearch historySearch() {
        if (historySearch == null) {
            historySearch = new OrderHistorySearch(gateway(), trackedOrders(), clock);
        }
        return historySearch;
    }

    private ProviderGateway gateway() {
        if (gateway == null) {
            gateway = new ProviderGateway(providerClient(), budget());
        }
        return gateway;
    }

    private HttpProviderClient providerClient() {
        if (client == null) {
            ProviderEndpoint endpoint = new ProviderEndpoint(providerBaseUrl(),
                    new Signer(settings.apiKey(), settings.apiSecret()), settings.connectTimeout(), settings.responseTimeout());
            // every provider call goes through routes/provider.yaml: its beans and the one http component
            providerPool = ProviderRouteBeans.bind(camel, endpoint, observability().meter(gate()));
            client = new HttpProviderClient(camel, endpoint);
        }
        return client;
    }

    private StoppableGate gate() {
        if (gate == null) {
            gate = new StoppableGate(budget());
        }
        return gate;
    }

    private RateBudget budget() {
        if (budget == null) {
            // A request is over by the pool lease, the connect and the answer timeouts at the latest.
            Duration longestCall = settings.connectTimeout().multipliedBy(2).plus(settings.responseTimeout());
            budget = RateBudget.restore(clock, journal(), longestCall, RateBudget.Waiter.REAL,
                    new AccountLimits(Tier.BASIC.requestsPerMinute(), AccountLimitsRefresh.UNKNOWN_DAILY_LIMIT, 0,
                            clock.instant()));
        }
        return budget;
    }

    private WebhookAuthenticator webhookAuthenticator() {
        if (webhooks == null) {
            webhooks = new WebhookAuthenticator(webhookSecret());
        }
        return webhooks;
    }

    /** The provider's address: the one set, or the embedded sandbox's. */
    private String providerBaseUrl() {
        return settings.embeddedSandbox() ? sandbox().baseUrl() : settings.baseUrl();
    }

    /** The embedded sandbox signs with its own (demo) webhook secret unless one is set: both sides use the same. */
    private String webhookSecret() {
        if (!settings.embeddedSandbox()) {
            return settings.webhookSecret();
        }
        if (settings.webhookSecret() == null && settings.webhookEnabled()) {
            LOG.info("Webhooks are verified with the embedded sandbox's demo webhook secret");
        }
        return sandbox().config().webhookSecret();
    }

    /** Started here, and only when the settings chose it (no provider setting given, see ProviderChoice). */
    private SandboxProvider sandbox() {
        if (sandbox == null) {
            sandbox = startSandbox();
        }
        return sandbox;
    }

    private Journal openJournal() {
        JdbcJournal opened;
        if (opening == null) {
            opened = openJdbcJournal();
        } else {
            try {
                opened = opening.join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            } finally {
                opening = null;
            }
        }
        opened.onRowsFinal(new RowFinalEvents(camel)); // the report route aggregates them per batch
        return opened;
    }

    private JdbcJournal openJdbcJournal() {
        try {
            JdbcJournal opened = JdbcJournal.open(settings.data(), settings.dbUrl(), settings.dbUser(), settings.dbPassword());
            String mixed = ProviderSwitchCheck.problem(opened.providersServed(), ProviderName.of(settings),
                    ProviderSwitchCheck.where(settings));
            if (mixed != null) {
                opened.close();
                throw new StartupRefusal(mixed);
            }
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

    private CustomerRules customerRules() {
        if (settings.customerRules() == null) {
            return CustomerRules.loadDefault();
        }
        try {
            return CustomerRules.load(Path.of(settings.customerRules()));
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
        if (config.stateFile() == null) {
            config.setStateFile(ProviderSession.embeddedSandboxState(settings)); // its orders outlive a restart
        }
        SandboxProvider started;
        try {
            started = SandboxProvider.start(config, 0);
        } catch (SandboxStateException e) {
            throw new StartupRefusal(e.getMessage());
        }
        LOG.info("Embedded sandbox provider listening on {} (account kept in {})", started.baseUrl(), config.stateFile());
        return started;
    }

    /** Workers first, then the provider client, the journal and the embedded sandbox. */
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
        if (providerPool != null) {
            providerPool.close();
            providerPool = null;
        }
        if (journal != null) {
            journal.close();
            journal = null;
        }
        if (opening != null) {
            // a start that ended before any bean asked for the journal: it is still closed, with its lock
            try {
                opening.join().close();
            } catch (RuntimeException e) {
                // it never opened: nothing to close
            }
            opening = null;
        }
        if (sandbox != null) {
            sandbox.close();
            sandbox = null;
        }
    }
}
