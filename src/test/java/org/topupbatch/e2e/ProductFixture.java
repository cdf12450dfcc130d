package org.topupbatch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.PostgresServer;

/**
 * What an end-to-end test stands on, made before each test and taken down after it: the sandboxes
 * it asks for (either dialect, one or two, over real HTTP on 127.0.0.1), the built jar in a folder of
 * its own ({@link #run()}) ordering from them (one sandbox: the single account; two: the accounts
 * {@code main} and {@code dfz}, see {@link #twoAccounts}), operator commands run beside it as
 * separate processes, each within {@link #COMMAND_LIMIT} ({@link #command(String...)}), and the
 * shared embedded PostgreSQL when the test journals there ({@link #journalOn(JournalDatabase)}).
 *
 * <p>Register it as an instance field, so that each test gets fresh sandboxes, and name its parts in fields:
 * <pre>{@code
 * @RegisterExtension
 * final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(23L))
 *         .env("TOPUP_SUBMIT_CONCURRENCY", "1");
 * final SandboxProvider sandbox = product.sandbox();
 * final JarRun run = product.run();
 * }</pre>
 * A test's own {@code @BeforeEach} runs after the fixture's and may change {@code run.env} further.
 */
final class ProductFixture implements BeforeEachCallback, AfterEachCallback {

    /** A command's longest run: a JVM start and a journal query take seconds even on a loaded CI machine. */
    static final Duration COMMAND_LIMIT = Duration.ofMinutes(2);

    private static final PostgresServer POSTGRES = new PostgresServer();

    /** The names of the two accounts {@link #onTwoAccounts} wires. */
    static final String MAIN = "main";
    static final String DFZ = "dfz";

    private final List<Supplier<SandboxConfig>> configs = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private boolean webhooks;
    private final List<SandboxProvider> sandboxes = new ArrayList<>();
    private final List<Process> others = new ArrayList<>();
    private final List<JarRun> nodes = new ArrayList<>();
    private boolean started;
    private final Path home;
    private final JarRun run;
    private final JarRun command;

    /** The folder and the (not yet started) product exist from the start, so that a test can name them in its fields. */
    private ProductFixture() {
        try {
            home = Files.createTempDirectory("topup-e2e-");
            run = new JarRun(home);
            command = new JarRun(home.resolve("command"));
        } catch (IOException e) {
            throw new UncheckedIOException("no folder for the product under test: " + e.getMessage(), e);
        }
    }

    /** A product ordering from one sandbox with this configuration. */
    static ProductFixture on(Supplier<SandboxConfig> sandbox) {
        return new ProductFixture().and(sandbox);
    }

    /**
     * A product with two accounts: {@code main} on a sandbox of the default dialect ({@link #sandbox(int) sandbox(0)})
     * and {@code dfz} on a Digiflazz one ({@code sandbox(1)}), wired by {@link #twoAccounts}.
     */
    static ProductFixture onTwoAccounts(Supplier<SandboxConfig> main, Supplier<SandboxConfig> dfz) {
        return new ProductFixture().and(main).and(dfz);
    }

    /** The built jar alone: no sandbox (a test that starts its own with {@link #startSandbox}, or needs none). */
    static ProductFixture withoutSandbox() {
        return new ProductFixture();
    }

    private ProductFixture and(Supplier<SandboxConfig> sandbox) {
        configs.add(sandbox);
        return this;
    }

    /** The (first) sandbox sends its webhooks to the product's webhook port. */
    ProductFixture sendingWebhooks() {
        webhooks = true;
        return this;
    }

    /** A setting of the product (a {@code TOPUP_} variable) for every test of the class. */
    ProductFixture env(String name, String value) {
        env.put(name, value);
        run.env.put(name, value);
        return this;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        startSandboxes();
    }

    /**
     * Starts the declared sandboxes (once: on the test's first look at one, or before its set-up) and
     * points the product at them; the class's own settings ({@link #env}) stay on top.
     */
    private void startSandboxes() {
        if (started) {
            return;
        }
        started = true;
        for (Supplier<SandboxConfig> config : configs) {
            SandboxConfig sandbox = config.get();
            if (webhooks && sandboxes.isEmpty()) {
                sandbox.setWebhookUrl("http://127.0.0.1:" + run.webhookPort() + "/webhook");
            }
            sandboxes.add(SandboxProvider.start(sandbox, 0));
        }
        if (configs.size() == 1) {
            run.provider(sandboxes.get(0).baseUrl());
        } else if (configs.size() == 2) {
            twoAccounts(run.env, sandboxes.get(0), sandboxes.get(1));
        }
        run.env.putAll(env);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        run.kill();
        command.kill();
        for (JarRun node : nodes) {
            node.kill();
        }
        for (Process other : others) {
            other.destroyForcibly().waitFor();
        }
        for (SandboxProvider sandbox : sandboxes) {
            sandbox.close();
        }
        sandboxes.clear();
        if (context.getExecutionException().isEmpty()) {
            deleteHome(); // a failed test's folder (run-N.log, journal, reports) stays for whoever looks into it
        } else {
            System.err.println("the failed test's folder is kept: " + home);
        }
    }

    /** The test's folder: the product's inbox, reports and data are in it. */
    Path home() {
        return home;
    }

    /** The product under test, not started yet. */
    JarRun run() {
        return run;
    }

    /** The first sandbox: the one the product orders from. */
    SandboxProvider sandbox() {
        return sandbox(0);
    }

    /** The sandboxes in the order they were declared. */
    SandboxProvider sandbox(int index) {
        startSandboxes();
        return sandboxes.get(index);
    }

    /**
     * A sandbox the test starts itself (its configuration depends on the test's case), stopped after the
     * test. The product is not pointed at it: the test wires it ({@code run().provider(...)} or accounts).
     */
    SandboxProvider startSandbox(SandboxConfig config) {
        SandboxProvider started = SandboxProvider.start(config, 0);
        sandboxes.add(started);
        return started;
    }

    /**
     * The run's settings for the accounts {@code main} (default dialect, the sandbox's demo key) and
     * {@code dfz} (Digiflazz, its demo username and key, 300 a minute), polling only (no webhooks: every
     * product here is instant); a product held as an outage instead of moved on would be rejected soon
     * rather than keep the run waiting.
     */
    static void twoAccounts(Map<String, String> env, SandboxProvider main, SandboxProvider dfz) {
        SandboxConfig demo = SandboxConfig.defaults();
        env.put("TOPUP_PROVIDERS", MAIN + "," + DFZ);
        env.put("TOPUP_PROVIDER_MAIN_BASE_URL", main.baseUrl());
        env.put("TOPUP_PROVIDER_MAIN_API_KEY", demo.apiKey());
        env.put("TOPUP_PROVIDER_MAIN_API_SECRET", demo.apiSecret());
        env.put("TOPUP_PROVIDER_DFZ_DIALECT", "digiflazz");
        env.put("TOPUP_PROVIDER_DFZ_BASE_URL", dfz.baseUrl());
        env.put("TOPUP_PROVIDER_DFZ_API_KEY", dfz.config().username());   // Digiflazz's username
        env.put("TOPUP_PROVIDER_DFZ_API_SECRET", dfz.config().apiKey());  // Digiflazz's key
        env.put("TOPUP_PROVIDER_DFZ_RATE_LIMIT", "300");
        env.put("TOPUP_WEBHOOK_PORT", "0");
        env.put("TOPUP_OUTAGE_RECHECK", "1s");
        env.put("TOPUP_OUTAGE_WAIT", "5s");
    }

    /** The product journals on this database; PostgreSQL is a fresh database of the shared server. */
    JarRun journalOn(JournalDatabase journal) {
        return run.journalOn(journal, POSTGRES);
    }

    /** A fresh database on the shared embedded PostgreSQL. */
    static PostgresServer.Database postgresDatabase() {
        return POSTGRES.createDatabase();
    }

    static PostgresServer postgres() {
        return POSTGRES;
    }

    /**
     * One of the jar's commands with the product's settings, as an operator runs it beside the product;
     * returns its exit code ({@link #commandOutput()} has what it printed). Fails when it overruns.
     */
    int command(String... args) throws Exception {
        command.env.clear();
        command.env.putAll(run.env);
        Process p = command.start(args);
        if (!p.waitFor(COMMAND_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
            command.kill();
            throw new AssertionError(String.join(" ", args) + " did not end within " + COMMAND_LIMIT
                    + " and was killed; its output:\n" + command.output());
        }
        return p.exitValue();
    }

    /**
     * One more product (a second node of a cluster) in a folder of its own under {@link #home()}, with the
     * same defaults as {@link #run()} and no provider yet; killed after the test.
     */
    JarRun node(String name) throws IOException {
        JarRun node = new JarRun(Files.createDirectories(home.resolve("node-" + name)));
        nodes.add(node);
        return node;
    }

    /** A process the test started by other means (the jar with a heap of its own, the standalone sandbox): killed after the test. */
    Process killedAfter(Process process) {
        others.add(process);
        return process;
    }

    /** What the last {@link #command(String...)} printed. */
    String commandOutput() {
        return command.output();
    }

    private void deleteHome() throws IOException {
        try (Stream<Path> files = Files.walk(home)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
