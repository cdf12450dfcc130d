package org.topupbatch.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A loopback port nobody listens on right now, for a server a test starts (or has the jar start).
 *
 * <p>Taken below Linux's ephemeral range (32768-60999), at random, and never handed out twice by
 * one test JVM: a port the kernel picked for "port 0" is the next one it gives to any outgoing
 * connection too, and with two test JVMs making many connections, such a port was sometimes taken
 * again before the server meant for it could bind it ("already in use").
 *
 * <p>Each test JVM of a build takes its ports from a band of its own, chosen by its fork number
 * ({@code topup.test.fork}, Surefire's and Failsafe's {@code surefire.forkNumber}, set in pom.xml):
 * a port is free when picked but bound only when the jar started for it listens, seconds later,
 * and nine JVMs picking at random from one range could both pick it meanwhile. Without a fork
 * number (a test run from an IDE) the whole range is used.
 */
public final class FreePorts {

    private static final int RANGE_LOW = 20_000;
    private static final int RANGE_HIGH = 32_000;
    /** Bands the range is cut into: more than the suite's test JVMs (nine in CI's one pool). */
    private static final int BANDS = 12;
    private static final int LOW;
    private static final int HIGH;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    static {
        int[] band = band(System.getProperty("topup.test.fork"));
        LOW = band[0];
        HIGH = band[1];
    }

    /** The ports [low, high) of a test JVM with this fork number (1, 2, ...); the whole range for none. */
    static int[] band(String forkNumber) {
        int fork = forkNumber != null && forkNumber.trim().matches("\\d{1,6}") ? Integer.parseInt(forkNumber.trim()) : 0;
        if (fork < 1) {
            return new int[] {RANGE_LOW, RANGE_HIGH}; // no fork number: an IDE's run, or a placeholder left unreplaced
        }
        int width = (RANGE_HIGH - RANGE_LOW) / BANDS;
        int low = RANGE_LOW + ((fork - 1) % BANDS) * width;
        return new int[] {low, low + width};
    }

    private FreePorts() {
    }

    public static int pick() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
            if (HANDED_OUT.contains(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            } catch (IOException inUse) {
                // someone listens there: another try
            }
        }
        throw new IllegalStateException("no free loopback port between " + LOW + " and " + HIGH + " after 200 tries");
    }
}
