package org.topupbatch.config;

import java.time.Clock;
import java.util.List;
import java.util.function.IntConsumer;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.main.MainConfigurationProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.cluster.LeaderDuties;
import org.topupbatch.cluster.TwoNodes;
import org.topupbatch.journal.Journal;
import org.topupbatch.run.GracefulStop;
import org.topupbatch.run.StartupChecks;
import org.topupbatch.settings.Settings;
import org.topupbatch.settings.SettingsLookup;

/**
 * The product's configuration classes, one per area, made in the order they depend on each other
 * and handed to Camel Main, which binds every bean of theirs by name before the routes of
 * {@code routes/} are configured. Each bean is bound once, by one {@code @BindToRegistry} method;
 * nothing else binds beans. The run ({@link TopupApplication}) and the route tests use this one
 * assembly, so both start the same way.
 *
 * <p>Settings and Camel's properties are one system: the lookup the settings were read and checked
 * from is Camel's source of every {@code topup.*} key ({@link SettingsLookup#asCamelSource}), so a
 * placeholder or an {@code @PropertyInject} reads the checked value.
 */
public final class TopupWiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopupWiring.class);
    static final String SANDBOX_WARNING = "EMBEDDED SANDBOX IN USE: no real order will be placed. To order from your"
            + " provider set TOPUP_BASE_URL, TOPUP_API_KEY and TOPUP_API_SECRET.";

    private final Settings settings;
    private final SettingsLookup lookup;
    private final JournalConfiguration journal;
    private final ProviderConfiguration provider;
    private final ClusterConfiguration cluster;
    private final ObserveConfiguration observe;
    private final SftpConfiguration sftp;
    private final IntakeConfiguration intake;
    private final SubmitConfiguration submit;
    private final TrackConfiguration track;
    private final ReportConfiguration report;
    private final NotifyConfiguration notify;
    private final RunConfiguration run;

    /**
     * @param lookup where the settings were read from (the embedded sandbox and the node name read theirs there too)
     * @param exit how the run-once route ends the run with an exit code
     */
    public TopupWiring(Settings settings, SettingsLookup lookup, Clock clock, IntConsumer exit) {
        this.settings = settings;
        this.lookup = lookup;
        if (settings.provider().embeddedSandbox()) {
            // the first line of a sandbox run, before anything the sandbox or Camel says
            LOG.warn(SANDBOX_WARNING);
        }
        journal = new JournalConfiguration(settings);
        provider = new ProviderConfiguration(settings, lookup, clock, journal);
        cluster = new ClusterConfiguration(settings, lookup, clock);
        notify = new NotifyConfiguration(settings, journal, clock, org.topupbatch.cluster.NodeName.resolve(lookup));
        observe = new ObserveConfiguration(settings, clock, journal, provider, cluster, notify);
        sftp = new SftpConfiguration(settings);
        intake = new IntakeConfiguration(settings, clock, journal, provider);
        submit = new SubmitConfiguration(settings, clock, journal, provider, notify);
        track = new TrackConfiguration(settings, clock, journal, provider);
        report = new ReportConfiguration(settings, clock, journal, provider, sftp, observe, notify);
        // once mode: what the run's reports call for is delivered before the process ends
        run = new RunConfiguration(settings, clock, code -> {
            notify.deliverBeforeExit(java.time.Duration.ofSeconds(30));
            exit.accept(code);
        }, journal, provider, observe, intake, submit, report);
        submit.ledBy(cluster.accountsLed());
        track.ledBy(cluster.accountsLed());
        run.ledBy(cluster.accountsLed());
    }

    /** In the order Camel Main is to take them. */
    public List<CamelConfiguration> configurations() {
        return List.of(new CamelHandover(), notify, journal, provider, provider.routeConfiguration(), cluster, observe, sftp, intake,
                submit, track, report, run, new Announcement());
    }

    public void addTo(MainConfigurationProperties main) {
        configurations().forEach(main::addConfiguration);
    }

    /** Opens the journal beside Camel Main's own start (see {@link JournalConfiguration#openEarly}). */
    public void openJournalEarly() {
        journal.openEarly();
    }

    /**
     * Before the routes exist: on a shared journal the cluster service and the leader's route policy,
     * whose duties are the run's. Null on a journal no other process shares.
     */
    public TwoNodes installTwoNodes(CamelContext camel, IntConsumer exit) {
        return cluster.install(camel, new LeaderDuties() {
            @Override
            public String takeOver() {
                String fatal = run.takeLeadership();
                if (fatal == null) {
                    String node = org.topupbatch.cluster.NodeName.resolve(lookup);
                    // leading is a lock the journal holds for this node's connection, not a row it
                    // commits: there is no change to share a transaction with, so the notice is recorded
                    // in one of its own right after (a crash in between loses it; docs/operating.md#notifications)
                    notify.notifications().tell(new org.topupbatch.notify.Notice("leader_changed",
                            "topup-batch: node " + node + " is now the active node",
                            "Node " + node + " took over sending and tracking on the shared journal.",
                            java.util.Map.of("node", node)));
                }
                return fatal;
            }

            @Override
            public void stepDown() {
                run.stepDown();
            }

            @Override
            public void exit(int code) {
                exit.accept(code);
            }

            @Override
            public void takeAccount(String account) {
                run.takeAccountLead(account);
            }

            @Override
            public boolean awaitAccountQuiet(String account) {
                return run.awaitAccountQuiet(account);
            }
        });
    }

    public Journal journal() {
        return journal.journal();
    }

    public StartupChecks startupChecks() {
        return run.startupChecks();
    }

    public GracefulStop gracefulStop() {
        return run.gracefulStop();
    }

    /** Workers first, then the provider client and the embedded sandbox, then the journal. */
    @Override
    public void close() {
        submit.close();
        observe.close();
        provider.close();
        journal.close();
    }

    /**
     * Camel Main hands each configuration class its context just before binding that class's beans;
     * a bean built on first use may reach into an area whose turn has not come yet (the provider's
     * gate is metered by the observe area), so every area gets the context from the first class.
     */
    private final class CamelHandover extends AreaConfiguration {
        @Override
        public void setCamelContext(CamelContext camelContext) {
            super.setCamelContext(camelContext);
            // before any @PropertyInject or route placeholder is read: topup.* keys come from the settings' own lookup
            lookup.asCamelSource(camelContext);
            for (AreaConfiguration area : List.of(journal, provider, cluster, observe, sftp, intake, submit, track, report, run)) {
                area.setCamelContext(camelContext);
            }
        }
    }

    /** The run's settings (no secrets) and where orders go, once every bean is bound. */
    private final class Announcement extends AreaConfiguration {
        @Override
        public void configure(CamelContext camelContext) {
            LOG.info("topup-batch {} on {}", settings, provider.shown());
        }
    }
}
