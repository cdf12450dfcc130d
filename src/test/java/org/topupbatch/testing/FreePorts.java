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
 */
public final class FreePorts {

    private static final int LOW = 20_000;
    private static final int HIGH = 32_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

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
