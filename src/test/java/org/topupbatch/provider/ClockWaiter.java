package org.topupbatch.provider;

import java.time.Duration;
import org.topupbatch.testing.MutableClock;

/**
 * Waits for the rate budget by moving the test's clock instead of sleeping: a budget that asks to
 * wait 52 s finds the clock 52 s later at once. {@link #then} runs after each wait, as if other
 * threads had acted meanwhile (an answer arriving).
 */
final class ClockWaiter implements RateBudget.Waiter {

    private final MutableClock clock;
    private volatile Runnable then = () -> { };

    ClockWaiter(MutableClock clock) {
        this.clock = clock;
    }

    void then(Runnable action) {
        this.then = action;
    }

    @Override
    public void waitOn(Object lock, long millis) {
        clock.advance(Duration.ofMillis(millis));
        then.run();
    }
}
