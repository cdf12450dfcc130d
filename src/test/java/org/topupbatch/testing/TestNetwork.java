package org.topupbatch.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Test hosts on links of their own, for partition tests: a Linux network namespace per host, joined
 * to this machine's namespace (where the test, its PostgreSQL and its sandbox run) by a veth pair on a
 * private 10.x.y.0/24 subnet that exists only between the two ends. Packets are dropped on a host's
 * link with nftables inside its namespace, so the rest of the machine is untouched.
 *
 * <p>Needs root, {@code ip} (iproute2) and {@code nft} (nftables); a machine without them fails the
 * test with a line saying so (.ci/run installs both). Every namespace and link is removed on
 * {@link #close} and, should the test JVM end first, by a shutdown hook.
 */
public final class TestNetwork implements AutoCloseable {

    private static final long COMMAND_SECONDS = 20;
    /** The nftables table a cut lives in, inside a host's namespace; deleting it heals the link. */
    private static final String CUT_TABLE = "topup_partition_cut";

    private final int subnet;
    private final String prefix;
    /** host name, in creation order, to its index (its subnet's third byte) */
    private final Map<String, Integer> hosts = new LinkedHashMap<>();
    private final Thread hook = new Thread(this::removeQuietly, "test-network-cleanup");
    private boolean closed;

    private TestNetwork(int subnet, String prefix) {
        this.subnet = subnet;
        this.prefix = prefix;
    }

    /** Makes one namespace per host name (letters, at most 3), each on its own link; fails loudly when the machine cannot. */
    public static TestNetwork create(String... names) {
        for (String tool : List.of("ip", "nft")) {
            if (!onPath(tool)) {
                throw new AssertionError("the partition test needs '" + tool + "' (Debian packages iproute2 and nftables,"
                        + " installed by .ci/run) and root; this machine has no " + tool + ": it fails, it never skips");
            }
        }
        TestNetwork net = new TestNetwork(freeSubnet(), "tbp" + ProcessHandle.current().pid() % 100_000);
        Runtime.getRuntime().addShutdownHook(net.hook);
        try {
            int index = 0;
            for (String name : names) {
                net.add(name, ++index);
            }
            return net;
        } catch (RuntimeException | Error e) {
            net.close();
            throw e;
        }
    }

    private void add(String name, int index) {
        hosts.put(name, index);
        String ns = namespace(name);
        String veth = prefix + name; // at most 15 characters: "tbp" + 5 digits + the name
        run("ip", "netns", "add", ns);
        run("ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns);
        run("ip", "addr", "add", gateway(name) + "/24", "dev", veth);
        run("ip", "link", "set", veth, "up");
        inside(name, "ip", "addr", "add", address(name) + "/24", "dev", "eth0");
        inside(name, "ip", "link", "set", "lo", "up");
        inside(name, "ip", "link", "set", "eth0", "up");
        inside(name, "ip", "route", "add", "default", "via", gateway(name));
    }

    /** This machine's address on the link of {@code host}: servers listening here are reachable from every host. */
    public String gateway(String host) {
        return "10." + subnet + "." + index(host) + ".1";
    }

    /** The host's own address. */
    public String address(String host) {
        return "10." + subnet + "." + index(host) + ".2";
    }

    /** The subnet all hosts' links are in, as PostgreSQL's pg_hba.conf writes it. */
    public String cidr() {
        return "10." + subnet + ".0.0/16";
    }

    /** What to put before a command to run it on {@code host}. */
    public List<String> launcher(String host) {
        return List.of("ip", "netns", "exec", namespace(host));
    }

    /** Drops every TCP packet from and to {@code port} of this machine on the host's link (the link to one server). */
    public void cutPort(String host, int port) {
        cut(host, "tcp dport " + port + " drop", "tcp sport " + port + " drop");
    }

    /** Drops every packet on the host's link: it reaches nothing and nothing reaches it. */
    public void isolate(String host) {
        cut(host, "oifname != \"lo\" drop", "iifname != \"lo\" drop");
    }

    private void cut(String host, String outRule, String inRule) {
        nft(host, "add table inet " + CUT_TABLE + "\n"
                + "add chain inet " + CUT_TABLE + " out { type filter hook output priority 0; }\n"
                + "add chain inet " + CUT_TABLE + " in { type filter hook input priority 0; }\n"
                + "add rule inet " + CUT_TABLE + " out " + outRule + "\n"
                + "add rule inet " + CUT_TABLE + " in " + inRule);
    }

    /** Ends the host's cut: its link carries everything again. */
    public void heal(String host) {
        nft(host, "delete table inet " + CUT_TABLE);
    }

    private String namespace(String host) {
        return prefix + "-" + host;
    }

    private int index(String host) {
        Integer index = hosts.get(host);
        if (index == null) {
            throw new IllegalArgumentException("no test host " + host);
        }
        return index;
    }

    private void inside(String host, String... command) {
        List<String> all = new ArrayList<>(launcher(host));
        all.addAll(List.of(command));
        run(all.toArray(String[]::new));
    }

    /** nft in the host's namespace, reading its commands from standard input: one transaction. */
    private void nft(String host, String script) {
        List<String> all = new ArrayList<>(launcher(host));
        all.addAll(List.of("nft", "-f", "-"));
        runWith(script, all.toArray(String[]::new));
    }

    private static void run(String... command) {
        runWith(null, command);
    }

    private static void runWith(String input, String... command) {
        String out;
        int code;
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (input != null) {
                p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not end within " + COMMAND_SECONDS + " s");
            }
            code = p.exitValue();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + String.join(" ", command), e);
        }
        if (code != 0) {
            throw new AssertionError("the partition test's network cannot be made (needs root and network namespaces): '"
                    + String.join(" ", command) + "' exited " + code + ": " + out);
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** A 10.x.0.0/16 none of this machine's addresses is in (another run's, a real network). */
    private static int freeSubnet() {
        String addresses;
        try {
            Process p = new ProcessBuilder("ip", "-o", "-4", "addr").redirectErrorStream(true).start();
            addresses = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new AssertionError("cannot list this machine's addresses (ip -o -4 addr): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        for (int attempt = 0; attempt < 50; attempt++) {
            int candidate = 200 + ThreadLocalRandom.current().nextInt(50);
            if (!addresses.contains(" 10." + candidate + ".")) {
                return candidate;
            }
        }
        throw new AssertionError("no free 10.200-249.0.0/16 subnet for the test network");
    }

    /**
     * Removes every namespace and link (processes still in a namespace are this test's own and are
     * killed first: a namespace lives on while a process is in it).
     */
    @Override
    public synchronized void close() {
        removeQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    private synchronized void removeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        for (String host : hosts.keySet()) {
            try {
                Process p = new ProcessBuilder("ip", "netns", "pids", namespace(host)).redirectErrorStream(true).start();
                String pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS);
                pids.lines().map(String::trim).filter(s -> s.matches("\\d+")).map(Long::parseLong)
                        .forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            } catch (IOException | InterruptedException | RuntimeException ignored) {
                // removal goes on below
            }
            quietly("ip", "netns", "del", namespace(host));
            quietly("ip", "link", "del", prefix + host); // usually gone with its peer's namespace
        }
    }

    private static void quietly(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException ignored) {
            // best effort: cleaning up
        }
    }
}
