package org.topupbatch.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import org.topupbatch.provider.RequestGate;

/**
 * The door every provider request passes, metered: where each call completes, it is counted by
 * operation and answer (the HTTP status, or {@code none} when no answer came) and timed from the
 * moment its slot was granted (the wait for the rate budget is not provider latency). The answer
 * also tells {@link ProviderAccess} whether the credentials are accepted, and {@link ProviderReach}
 * whether the provider answers at all.
 */
public final class MeteredGate implements RequestGate {

    private final RequestGate gate;
    private final MeterRegistry registry;
    private final ProviderAccess access;
    /** The provider label: the embedded sandbox, the provider's host, or with several accounts the account's name. */
    private final String provider;
    /** Whether the provider answered its latest request; null where nothing asks. */
    private final ProviderReach reach;

    public MeteredGate(RequestGate gate, MeterRegistry registry, ProviderAccess access) {
        this(gate, registry, access, "");
    }

    public MeteredGate(RequestGate gate, MeterRegistry registry, ProviderAccess access, String provider) {
        this(gate, registry, access, provider, null);
    }

    MeteredGate(RequestGate gate, MeterRegistry registry, ProviderAccess access, String provider, ProviderReach reach) {
        this.gate = gate;
        this.registry = registry;
        this.access = access;
        this.provider = provider;
        this.reach = reach;
    }

    @Override
    public Ticket enter(String operation) throws InterruptedException {
        Ticket ticket = gate.enter(operation);
        long started = System.nanoTime();
        return status -> {
            try {
                ticket.completed(status);
            } finally {
                record(operation, status, System.nanoTime() - started);
            }
        };
    }

    @Override
    public void refuseWaiting() {
        gate.refuseWaiting();
    }

    @Override
    public void acceptAgain() {
        gate.acceptAgain();
    }

    private void record(String operation, int httpStatus, long nanos) {
        Counter.builder("topup.provider.calls").description("Provider calls by operation and answer")
                .tag("operation", operation).tag("answer", httpStatus == 0 ? "none" : Integer.toString(httpStatus))
                .tag("provider", provider).register(registry).increment();
        Timer.builder("topup.provider.latency").description("Provider call time, from send to answer")
                .tag("operation", operation).tag("provider", provider).register(registry).record(nanos, TimeUnit.NANOSECONDS);
        access.answered(operation, httpStatus);
        if (reach != null) {
            reach.completed(provider, httpStatus);
        }
    }
}
