package org.topupbatch.testing;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The tests' one way to wait for an effect: look again every 50 ms until it is there or a deadline
 * passes (Awaitility is not on the classpath). Route tests may use Camel's {@code NotifyBuilder}
 * instead where an exchange is what they wait for.
 */
public final class Poll {

    static final long INTERVAL_MILLIS = 50;

    private Poll() {
    }

    /** A probe that may throw (an HTTP call, a file read); an exception fails the wait. */
    @FunctionalInterface
    public interface Probe<T> {
        T get() throws Exception;
    }

    /** Returns the first value of {@code probe} that {@code done} accepts; fails with the last value seen at the deadline. */
    public static <T> T until(String what, Duration timeout, Supplier<T> probe, Predicate<? super T> done) {
        return until(what, timeout, (Probe<T>) probe::get, done, () -> "");
    }

    /** Waits until {@code condition} is true; fails at the deadline. */
    public static void until(String what, Duration timeout, Supplier<Boolean> condition) {
        until(what, timeout, condition, Boolean.TRUE::equals);
    }

    /**
     * As {@link #until(String, Duration, Supplier, Predicate)}, with a probe that may throw and a
     * context (e.g. the process's output) added to the failure.
     */
    public static <T> T until(String what, Duration timeout, Probe<T> probe, Predicate<? super T> done, Supplier<String> context) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = lookUntil(deadline, probe, done);
        if (done.test(last)) {
            return last;
        }
        String more = context.get();
        throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what + " (last seen: " + last + ")"
                + (more == null || more.isEmpty() ? "" : "\n" + more));
    }

    /**
     * Looks until {@code done} accepts a value or the deadline passes, and returns the last value seen
     * either way: for a caller that stops early on something else too (a process that died) and then
     * asserts with its own message.
     */
    public static <T> T atMost(Duration timeout, Probe<T> probe, Predicate<? super T> done) {
        return lookUntil(System.nanoTime() + timeout.toNanos(), probe, done);
    }

    private static <T> T lookUntil(long deadline, Probe<T> probe, Predicate<? super T> done) {
        while (true) {
            T last;
            try {
                last = probe.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting", e);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError("the probe failed: " + e, e);
            }
            if (done.test(last) || System.nanoTime() - deadline > 0) {
                return last;
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting", e);
            }
        }
    }
}
