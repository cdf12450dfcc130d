package org.topupbatch.routes;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits for an effect with a deadline, looking again every 50 ms (Awaitility is not on the classpath). */
final class Poll {

    private Poll() {
    }

    /** Returns the first value of {@code probe} that {@code done} accepts; fails with the last value seen at the deadline. */
    static <T> T until(String what, Duration timeout, Supplier<T> probe, Predicate<? super T> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last;
        while (true) {
            last = probe.get();
            if (done.test(last)) {
                return last;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what + " (last seen: " + last + ")");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }

    static void until(String what, Duration timeout, Supplier<Boolean> condition) {
        until(what, timeout, condition, Boolean.TRUE::equals);
    }
}
