package org.topupbatch.config;

import org.topupbatch.run.ExitCode;

import org.topupbatch.run.GracefulStop;
import org.topupbatch.settings.SettingsException;
import org.topupbatch.settings.SettingsLookup;

import org.topupbatch.run.StartupPreflight;
import org.topupbatch.settings.Settings;
import org.topupbatch.run.StartupRefusal;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.CamelContext;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.Main;
import org.apache.camel.main.MainListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.observe.ManagementProperties;

/**
 * One run of the product: Camel Main with the routes of {@code routes/}, the beans they call
 * (bound by the areas' configuration classes, {@link TopupWiring}), and the start-up checks. Routes start only after the checks passed and the journal was
 * recovered, so nothing moves before the product knows where it stands.
 */
public final class TopupApplication {

    private static final Logger LOG = LoggerFactory.getLogger(TopupApplication.class);
    /** The webhook receiver's routes: the plain address, and each account's with several accounts. */
    private static final java.util.List<String> WEBHOOK_ROUTES = java.util.List.of("track-webhook", "track-webhook-account");

    private final Settings settings;
    private final SettingsLookup lookup;
    private final AtomicInteger exitCode = new AtomicInteger(0);

    /** @param lookup where the settings were read from */
    public TopupApplication(Settings settings, SettingsLookup lookup) {
        this.settings = settings;
        this.lookup = lookup;
    }

    /** Runs until stopped (watch) or done (once); returns the process exit code. */
    public int run() {
        try {
            StartupPreflight.check(settings.folders(), settings.pickUp(), settings.sftp(), settings.webhook(),
                    settings.management(), settings.intake());
        } catch (StartupRefusal e) {
            LOG.error("topup-batch cannot start: {}", e.getMessage());
            return ExitCode.FAILED.code();
        }
        // SFTP hook: in once mode the batches on the server now are brought in before the inbox snapshot
        try {
            int fetched = org.topupbatch.sftp.SftpWiring.fetchBeforeOnceRun(settings.sftp(), settings.pickUp().mode(),
                    settings.folders());
            if (fetched > 0) {
                LOG.info("{} batches fetched from {}", fetched, settings.inboxShown());
            }
        } catch (org.topupbatch.sftp.SftpUnavailableException e) {
            LOG.error("topup-batch cannot start: {}", e.getMessage());
            return ExitCode.FAILED.code();
        }
        // No package scan: the routes are the YAML files and the beans come from the areas' configuration classes.
        Main main = new Main();
        routeSettings(main);
        TopupWiring beans;
        try {
            beans = new TopupWiring(settings, lookup, Clock.systemUTC(), this::stop);
        } catch (SettingsException e) {
            LOG.error("topup-batch cannot start: {}", e.getMessage());
            return ExitCode.FAILED.code();
        }
        beans.openJournalEarly();
        beans.addTo(main.configure());
        main.addMainListener(new MainListenerSupport() {
            @Override
            public void beforeConfigure(BaseMainSupport m) {
                // before the routes exist: on a PostgreSQL journal they run under the leader's route policy
                twoNodes = beans.installTwoNodes(m.getCamelContext(), TopupApplication.this::stop);
            }

            @Override
            public void afterConfigure(BaseMainSupport m) {
                gracefulStop = beans.gracefulStop();
            }

            @Override
            public void afterStart(BaseMainSupport m) {
                CamelContext camel = m.getCamelContext();
                try {
                    // Webhooks are answered from the first second, while the checks below may wait
                    // for the provider or the rate budget.
                    for (String route : WEBHOOK_ROUTES) {
                        if (camel.getRoute(route) != null) {
                            camel.getRouteController().startRoute(route);
                        }
                    }
                } catch (Exception e) {
                    LOG.error("topup-batch cannot start: the webhook receiver did not start: {}", e.getMessage());
                    stop(ExitCode.FAILED.code());
                    return;
                }
                if (twoNodes != null) {
                    // two nodes: the leader's routes and start-up work wait for the journal lock
                    try {
                        twoNodes.begin(camel);
                    } catch (Exception e) {
                        LOG.error("topup-batch cannot start: {}", e.getMessage());
                        stop(ExitCode.FAILED.code());
                    }
                    return;
                }
                String fatal = beans.startupChecks().problem();
                if (fatal != null) {
                    LOG.error("topup-batch cannot start: {}", fatal);
                    stop(ExitCode.FAILED.code());
                    return;
                }
                try {
                    camel.getRouteController().startAllRoutes();
                } catch (Exception e) {
                    LOG.error("topup-batch cannot start its routes: {}", e.getMessage());
                    stop(ExitCode.FAILED.code());
                }
            }

            @Override
            public void beforeStop(BaseMainSupport m) {
                GracefulStop stop = gracefulStop;
                requestsFinishing = stop == null ? 0 : stop.stopTaking();
            }

            @Override
            public void afterStop(BaseMainSupport m) {
                GracefulStop stop = gracefulStop;
                if (!endedByRun && stop != null) {
                    LOG.info("Stopped on request: {}", stop.summary(requestsFinishing));
                }
                beans.close();
            }
        });
        this.main = main;
        CountDownLatch finished = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> awaitStop(finished), "topup-batch-stop"));
        try {
            main.run();
        } catch (Exception e) {
            String refusal = refusal(e);
            if (refusal != null) {
                LOG.error("topup-batch cannot start: {}", refusal);
            } else {
                LOG.error("topup-batch stopped on an error: {}", unwrapped(e).getMessage());
            }
            beans.close();
            return ExitCode.FAILED.code();
        } finally {
            finished.countDown();
        }
        return exitCode.get();
    }

    /**
     * On SIGTERM the JVM halts as soon as its shutdown hooks return, and Camel's own hook returns
     * once the routes are stopped: this one holds the JVM until the run has also journaled its last
     * outcomes, said how it stopped and closed the journal.
     */
    private void awaitStop(CountDownLatch finished) {
        try {
            if (!finished.await(shutdownTimeout(settings).toSeconds() + 15, TimeUnit.SECONDS)) {
                LOG.warn("Stop took too long; exiting with work unfinished (the next start reconciles it)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The error itself, not the wrappers Camel adds when a bean method of a configuration class
     * throws (their message is only the wrapped class's name).
     */
    private static Throwable unwrapped(Throwable e) {
        Throwable t = e;
        while ((t instanceof java.lang.reflect.InvocationTargetException || t instanceof org.apache.camel.RuntimeCamelException)
                && t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /** The one-line reason when start-up was refused (Camel Main wraps what the listeners throw). */
    private static String refusal(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StartupRefusal || t instanceof SettingsException) {
                return t.getMessage();
            }
        }
        return null;
    }

    /** On a PostgreSQL journal one node leads, the others stand by (org.topupbatch.cluster). */
    private volatile org.topupbatch.cluster.TwoNodes twoNodes;

    private volatile Main main;
    /** Null while the beans are not bound (a start refused before that has nothing to stop). */
    private volatile GracefulStop gracefulStop;
    private volatile boolean endedByRun;
    private volatile int requestsFinishing;

    private void stop(int code) {
        endedByRun = true;
        exitCode.set(code);
        Main m = main;
        if (m != null) {
            m.completed();
        }
    }

    /** Hands the checked settings to the routes, and switches route files and the HTTP server on or off. */
    private void routeSettings(Main main) {
        camelProperties(settings).forEach(main::addOverrideProperty);
    }

    /**
     * The Camel properties a run derives from the settings: the local inbox folder, the intake's
     * schedule, the webhook and management servers, and which optional route files are left out. Public so that the
     * route tests boot Camel with exactly the properties a real run uses.
     */
    public static Map<String, String> camelProperties(Settings settings) {
        Map<String, String> p = new LinkedHashMap<>();
        // Settings themselves are read by Camel from the settings' lookup (TopupWiring); only what is
        // derived from them is set here. The folder the intake watches: an sftp:// inbox is relayed into it.
        p.put("topup.internal.inbox-folder", settings.folders().inbox().toAbsolutePath().toString());
        intakeSchedule(settings, p);
        java.time.Duration backstop = org.topupbatch.report.ReportSchedule.backstopPeriod(settings.track().pendingTimeout());
        if (org.topupbatch.cluster.TwoNodes.sharedJournal(settings.journal().url())
                && backstop.compareTo(java.time.Duration.ofSeconds(5)) > 0) {
            // a journal shared by nodes: the last orders of a batch may turn final on the other node (one
            // that leads an account, or that took over the lead), whose events do not reach this node's
            // report route; the backstop finds the batch within 5 s, whatever the accounts
            backstop = java.time.Duration.ofSeconds(5);
        }
        p.put("topup.internal.report-backstop", Long.toString(backstop.toMillis()));
        p.put("camel.server.enabled", Boolean.toString(settings.webhook().enabled()));
        p.put("camel.server.port", Integer.toString(settings.webhook().port()));
        p.put("camel.server.host", settings.webhook().host());
        // a webhook is a few hundred bytes: a body over 1 MiB is answered 413 before it is buffered
        p.put("camel.server.max-body-size", "1048576");
        // a stop waits for the provider requests already sent: at most one response timeout
        p.put("camel.main.shutdown-timeout", Long.toString(shutdownTimeout(settings).toSeconds()));
        p.putAll(ManagementProperties.of(settings.management())); // dashboard, health and metrics
        StringBuilder exclude = new StringBuilder();
        if (!settings.webhook().enabled()) {
            exclude.append("**/track-webhook.yaml");
        }
        // each named account's address: its name is the path parameter {account} (routes/track-webhook.yaml,
        // route track-webhook-account, made only when there is a named account: the one account of
        // topup.base-url has only the plain address, and anything under it stays unanswered, 404)
        p.put("topup.internal.account-webhook-path", settings.webhook().accountPath("{account}"));
        p.put("topup.internal.account-webhooks", Boolean.toString(!settings.provider().accounts().isEmpty()));
        if (!settings.management().enabled()) {
            exclude.append(exclude.length() > 0 ? "," : "").append("**/dashboard.yaml,**/http-intake.yaml");
        }
        if (settings.pickUp().mode() != org.topupbatch.settings.PickUpSettings.Mode.ONCE) {
            exclude.append(exclude.length() > 0 ? "," : "").append("**/run-once.yaml");
        }
        if (settings.notifications().uris().isEmpty() && !settings.callbacks().anyCallback()
                && !settings.customers().anyChannel()) {
            exclude.append(exclude.length() > 0 ? "," : "").append("**/notify.yaml");
        }
        // the daily reconciliation: watch mode with a schedule only (a once run ends before midnight comes)
        // (and only with an account that has an order history to reconcile with, or several accounts)
        if (settings.pickUp().mode() == org.topupbatch.settings.PickUpSettings.Mode.WATCH && settings.reconcile().schedule() != null && settings.reconcilable()) {
            p.put("topup.internal.reconcile-cron", settings.reconcile().schedule().replace(' ', '+'));
            p.put("topup.internal.business-zone", settings.reconcile().businessZone().getId());
        } else {
            exclude.append(exclude.length() > 0 ? "," : "").append("**/reconcile.yaml");
        }
        // SFTP hook: the relay route of a remote inbox, and its endpoint
        if (!org.topupbatch.sftp.SftpWiring.relayRoute(settings.sftp(), settings.pickUp().mode())) {
            exclude.append(exclude.length() > 0 ? "," : "").append(org.topupbatch.sftp.SftpWiring.ROUTE_FILE);
        }
        org.topupbatch.sftp.SftpWiring.camelProperties(settings.sftp(), settings.pickUp().mode(), settings.folders(), p);
        if (exclude.length() > 0) {
            p.put("camel.main.routes-exclude-pattern", exclude.toString());
        }
        return p;
    }

    /** How long a stop may wait for work in flight: a provider answer (connect plus response timeout) and a margin. */
    public static java.time.Duration shutdownTimeout(Settings settings) {
        return settings.submit().connectTimeout().plus(settings.submit().responseTimeout()).plusSeconds(5).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }

    /**
     * How the intake polls the inbox: continuously (intake.yaml's delay, nothing set here), or on the
     * operator's cron schedule with quartz (never in once mode).
     */
    private static void intakeSchedule(Settings settings, Map<String, String> p) {
        if (settings.pickUp().schedule() != null && settings.pickUp().mode() == org.topupbatch.settings.PickUpSettings.Mode.WATCH) {
            p.put("topup.internal.intake-scheduler", "quartz");
            // a space in an endpoint address is written '+'
            p.put("topup.internal.intake-cron", settings.pickUp().schedule().replace(' ', '+'));
            p.put("topup.internal.intake-trigger", "topup-intake");
        }
    }
}
