package org.topupbatch.testing;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.topupbatch.provider.Dialect;
import org.topupbatch.provider.HttpProviderClient;
import org.topupbatch.provider.InMemoryCallLog;
import org.topupbatch.provider.ProviderEndpoint;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.Signer;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * What a unit test of the provider client (and of what sits on it: tracking, reconciling) stands on:
 * a sandbox over real HTTP on 127.0.0.1, in either dialect, with the provider client and gateway the
 * product would make for it, signed with the sandbox's demo credentials, and a rate budget on the
 * real clock (the sandbox counts real time). Made for each test, closed after it; register it as
 * an instance {@code @RegisterExtension} field and name the parts the test uses in fields of its own:
 * <pre>{@code
 * @RegisterExtension
 * final SandboxClient provider = SandboxClient.on(SandboxConfig::defaults);
 * final ProviderGateway gateway = provider.gateway();
 * }</pre>
 */
public final class SandboxClient implements BeforeEachCallback, AfterEachCallback {

    private final Supplier<SandboxConfig> config;
    private int perMinute = 600;
    private boolean paced = true;
    private SandboxProvider sandbox;
    private RateBudget budget;
    private HttpProviderClient client;
    private ProviderGateway gateway;

    private SandboxClient(Supplier<SandboxConfig> config) {
        this.config = config;
    }

    /** A client of a sandbox with this configuration (its dialect decides how requests are signed). */
    public static SandboxClient on(Supplier<SandboxConfig> config) {
        return new SandboxClient(config);
    }

    /** Requests a minute the budget allows (600 unless said), sent as fast as they come instead of evenly paced. */
    public SandboxClient unpaced(int perMinute) {
        this.perMinute = perMinute;
        this.paced = false;
        return this;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        start();
    }

    /** Starts it all once: at the test's first look at a part (a field of the test may name one), or before its set-up. */
    private void start() {
        if (sandbox != null) {
            return;
        }
        sandbox = SandboxProvider.start(config.get(), 0);
        RateBudget limits = new RateBudget(Clock.systemUTC(), new InMemoryCallLog(), Duration.ofSeconds(40),
                RateBudget.Waiter.REAL, perMinute, 100_000);
        budget = paced ? limits : limits.withoutPacing();
        SandboxConfig demo = sandbox.config();
        ProviderEndpoint endpoint = demo.dialect() == SandboxDialect.DIGIFLAZZ
                ? ProviderEndpoint.of(sandbox.baseUrl(), new Signer(demo.username(), demo.apiKey())).withDialect(Dialect.DIGIFLAZZ)
                : ProviderEndpoint.of(sandbox.baseUrl(), new Signer(demo.apiKey(), demo.apiSecret()));
        client = HttpProviderClient.standalone(endpoint, budget);
        gateway = new ProviderGateway(client, budget, d -> { });
    }

    @Override
    public void afterEach(ExtensionContext context) {
        client.close();
        sandbox.close();
    }

    public SandboxProvider sandbox() {
        start();
        return sandbox;
    }

    public RateBudget budget() {
        start();
        return budget;
    }

    public HttpProviderClient client() {
        start();
        return client;
    }

    public ProviderGateway gateway() {
        start();
        return gateway;
    }
}
