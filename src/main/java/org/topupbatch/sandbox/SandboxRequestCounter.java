package org.topupbatch.sandbox;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Request counters for {@link SandboxStats}; the window figures live in the rate limiter. */
final class SandboxRequestCounter {

    private final Map<SandboxOperation, LongAdder> perOperation = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();
    private final LongAdder rateLimited = new LongAdder();
    private final LongAdder stormRateLimited = new LongAdder();
    private final LongAdder droppedInOutage = new LongAdder();
    private final LongAdder gatewayRefused = new LongAdder();

    void received() {
        total.increment();
    }

    void received(SandboxOperation op) {
        perOperation.computeIfAbsent(op, o -> new LongAdder()).increment();
    }

    void rateLimited() {
        rateLimited.increment();
    }

    /** A 429 of the rate-limit-storm knob: not the account's limit, so not in {@link SandboxStats#rateLimited()}. */
    void stormRateLimited() {
        stormRateLimited.increment();
    }

    /** A 429 of the per-second gateway: the request never reached the provider. */
    void gatewayRefused() {
        gatewayRefused.increment();
    }

    void droppedInOutage() {
        droppedInOutage.increment();
    }

    long injectedFaults() {
        return stormRateLimited.sum() + droppedInOutage.sum();
    }

    SandboxStats snapshot(long busiestWindow) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (SandboxOperation op : SandboxOperation.values()) {
            LongAdder adder = perOperation.get(op);
            counts.put(op.wireName(), adder == null ? 0L : adder.sum());
        }
        return new SandboxStats(Map.copyOf(counts), rateLimited.sum(), busiestWindow, total.sum(), gatewayRefused.sum());
    }
}
