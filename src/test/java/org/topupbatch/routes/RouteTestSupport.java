package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.main.MainConfigurationProperties;
import org.apache.camel.test.main.junit5.CamelMainTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.settings.Settings;
import org.topupbatch.settings.SettingsLookup;
import org.topupbatch.run.StartupChecks;
import org.topupbatch.config.TopupApplication;
import org.topupbatch.config.TopupWiring;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * Boots the real Camel Main configuration (application.properties, classpath:routes/*.yaml) the way
 * {@link TopupApplication} does: the Camel properties a run derives from its settings, the beans
 * bound by the areas' configuration classes exactly as a run assembles them ({@link TopupWiring}),
 * its start-up checks, then the routes. The provider is an
 * in-process sandbox on 127.0.0.1; inbox, reports and data live in a temporary folder.
 *
 * <p>A test starts only the routes it names: the route under test and the ones that feed it, so
 * that what it sees is that route's doing.
 */
abstract class RouteTestSupport extends CamelMainTestSupport {

    static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    SandboxProvider sandbox;
    Settings settings;
    TopupWiring beans;
    /** What the run-once route handed to the exit consumer instead of ending the process. */
    final List<Integer> exitCodes = new CopyOnWriteArrayList<>();

    /** The route ids this test starts, in order. */
    abstract List<String> routes();

    /** The sandbox's knobs for this test (read while it runs, so a test may change them later too). */
    SandboxConfig sandboxConfig() {
        return SandboxConfig.defaults();
    }

    /** The clock of the product's beans and of the sandbox (rate windows, timestamps); a test may run a faster one. */
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Where the product sends its provider requests: the sandbox, or something a test puts in front of it. */
    String providerBaseUrl() {
        return sandbox.baseUrl();
    }

    /** topup.* settings of this test, as environment variables over application.properties. */
    void environment(Map<String, String> env) {
    }

    /** Runs after the folders exist and before Camel and its beans are built (once mode snapshots the inbox then). */
    void beforeBoot() throws Exception {
    }

    @Override
    protected CamelContext createCamelContext() throws Exception {
        Clock clock = clock();
        sandbox = SandboxProvider.start(sandboxConfig(), 0);
        sandbox.setClock(clock);
        Map<String, String> env = new HashMap<>();
        env.put("TOPUP_BASE_URL", providerBaseUrl());
        env.put("TOPUP_API_KEY", sandbox.config().apiKey());
        env.put("TOPUP_API_SECRET", sandbox.config().apiSecret());
        env.put("TOPUP_INBOX", dir.resolve("inbox").toString());
        env.put("TOPUP_REPORTS", dir.resolve("reports").toString());
        env.put("TOPUP_DATA", dir.resolve("data").toString());
        env.put("TOPUP_MODE", "watch");
        // the suite's files order a few customers again and again (generated rows cycle through a handful;
        // files are dropped again under new names): the repeat guard (24h by default) is off unless a
        // test turns it on, as RepeatGuard tests do
        env.put("TOPUP_REPEAT_WINDOW", "0");
        env.put("TOPUP_WEBHOOK_HOST", "127.0.0.1");
        env.put("TOPUP_WEBHOOK_PORT", "0");
        env.put("TOPUP_MANAGEMENT_PORT", "0"); // no dashboard in route tests
        environment(env);
        SettingsLookup lookup = new SettingsLookup(applicationProperties(), env, new Properties());
        settings = Settings.load(lookup);
        Files.createDirectories(settings.folders().inbox());
        Files.createDirectories(settings.folders().reports());
        Files.createDirectories(settings.folders().data());
        beforeBoot();

        Properties overrides = new Properties();
        overrides.putAll(TopupApplication.camelProperties(settings));
        camelContextConfiguration().withUseOverridePropertiesWithPropertiesComponent(overrides);
        beans = new TopupWiring(settings, lookup, clock, exitCodes::add);
        return super.createCamelContext();
    }

    @Override
    protected void configure(MainConfigurationProperties configuration) {
        beans.addTo(configuration);
    }

    @BeforeEach
    void startRoutes() throws Exception {
        assertThat(context.getRegistry().lookupByNameAndType("startupChecks", StartupChecks.class).problem()).as("start-up checks").isNull();
        for (String id : routes()) {
            assertThat(context.getRoute(id)).as("route %s loaded from routes/*.yaml", id).isNotNull();
            context.getRouteController().startRoute(id);
        }
    }

    /** Camel first (its routes use the journal), then the journal, then the provider. */
    @AfterEach
    void stopAll() {
        if (context != null) {
            context.stop();
        }
        if (beans != null) {
            beans.close();
        }
        if (sandbox != null) {
            sandbox.close();
        }
    }

    /**
     * Notices when the route has finished this many more exchanges (for a file consumer: the file is
     * moved or left by then). Create it before the drop that feeds the route.
     */
    NotifyBuilder whenDone(String routeId, int exchanges) {
        return new NotifyBuilder(context).fromRoute(routeId).whenDone(exchanges).create();
    }

    /** Waits for what the builder notices, at most {@link #WAIT}. */
    static void await(NotifyBuilder notify, String what) {
        assertThat(notify.matches(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("not within %s: %s", WAIT, what).isTrue();
    }

    Journal journal() {
        return beans.journal();
    }

    /**
     * Puts a batch into the inbox in one step (written beside it, then moved in) with a modification
     * time in the past, so that the intake's read lock (readLockMinAge) need not wait for it to age.
     */
    Path drop(String name, String content) throws IOException {
        return drop(settings.folders().inbox(), name, content);
    }

    Path drop(Path inbox, String name, String content) throws IOException {
        Path staged = dir.resolve(name + ".staged");
        Files.writeString(staged, content, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(staged, FileTime.from(Instant.now().minusSeconds(60)));
        return Files.move(staged, inbox.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    Optional<BatchRecord> batch(String fileName) {
        return journal().intake().lastBatchForFile(fileName);
    }

    /** The rows of the batch taken from this file, in file order (empty while it is not taken). */
    List<RowRecord> rows(String fileName) {
        List<RowRecord> rows = new ArrayList<>();
        batch(fileName).ifPresent(b -> journal().reporting().forEachRow(b.id(), rows::add));
        return rows;
    }

    RowRecord row(String fileName, String refId) {
        return rows(fileName).stream().filter(r -> r.refId().equals(refId)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + refId + " in " + fileName));
    }

    static List<Path> list(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }


    private static Properties applicationProperties() throws IOException {
        Properties p = new Properties();
        try (InputStream in = RouteTestSupport.class.getResourceAsStream("/application.properties")) {
            p.load(in);
        }
        return p;
    }
}
