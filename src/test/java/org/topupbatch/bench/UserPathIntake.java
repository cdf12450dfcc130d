package org.topupbatch.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.topupbatch.testing.BuiltJar;

/**
 * The intake figure on the path users run: {@code java -jar target/topup-batch.jar} in watch mode on
 * its embedded sandbox (temp folders, H2 journal, webhooks and dashboard off, a balance that covers
 * the file), the intake figure's file written into the inbox under a temporary name and renamed to
 * {@code *.csv} (as users should), then the time from the rename until the jar logs
 * {@code Batch NAME: N rows, ...} (BatchIntake, right after the journal commit). Goes through the
 * jar and its log only, so it does not depend on the product's package names.
 *
 * <p>Besides the total it prints where the wall time went, from the jar's log timestamps:
 * rename to {@code Taking batch} (poll delay and the {@code readLock=changed} wait), to
 * {@code Submitting batch} (the submitter saw the committed rows: the commit has started; up to
 * its 500 ms timer late) and to the intake's log line (the rest of H2's commit).
 */
final class UserPathIntake {

    private UserPathIntake() {
    }

    /** Runs the jar on {@code csv} (a file of {@code rows} accepted rows) and prints one line. */
    static void run(Path csv, int rows) throws Exception {
        Path home = Files.createTempDirectory("topup-bench-userpath");
        Process p = null;
        try {
            Path inbox = Files.createDirectories(home.resolve("inbox"));
            Path jar = Path.of(System.getProperty("topup.jar", "target/topup-batch.jar")).toAbsolutePath();
            List<String> cmd = new ArrayList<>(List.of(BuiltJar.java()));
            // as users start it: no heap flag unless asked for (-Dbench.userpath.jvm=-Xmx256m)
            String jvm = System.getProperty("bench.userpath.jvm", "").trim();
            if (!jvm.isEmpty()) {
                cmd.addAll(List.of(jvm.split("\\s+")));
            }
            cmd.addAll(List.of("-Dtopup.sandbox.balance=1000000000000000", "-jar", jar.toString()));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true);
            pb.environment().put("TOPUP_DATA", home.resolve("data").toString());
            pb.environment().put("TOPUP_INBOX", inbox.toString());
            pb.environment().put("TOPUP_REPORTS", home.resolve("reports").toString());
            pb.environment().put("TOPUP_MODE", "watch");
            pb.environment().put("TOPUP_WEBHOOK_PORT", "0");
            pb.environment().put("TOPUP_MANAGEMENT_PORT", "0");
            p = pb.start();
            Log log = new Log(p);
            String name = csv.getFileName().toString().replaceAll("(?i)\\.csv$", "") + ".csv";
            if (log.await("Ready:", Duration.ofMinutes(2)) == null) {
                System.out.println("  !! user path: the jar did not get ready; its log: " + log.lines);
                return;
            }
            Path part = inbox.resolve(name + ".part");
            Files.copy(csv, part);
            try (var ch = java.nio.channels.FileChannel.open(part, java.nio.file.StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            LocalTime drop = LocalTime.now();
            long t0 = System.nanoTime();
            Files.move(part, inbox.resolve(name), StandardCopyOption.ATOMIC_MOVE);
            String done = log.await("Batch " + name + ": ", Duration.ofMinutes(30), "Batch " + name + " cannot be read");
            double wall = (System.nanoTime() - t0) / 1e9;
            if (done == null) {
                System.out.println("  !! user path: no intake line (unreadable file, or 30 min passed); its log: " + log.lines);
                return;
            }
            double taken = since(drop, log.find("Taking batch " + name));
            double visible = since(drop, log.find("Submitting batch " + name));
            double logged = since(drop, done);
            System.out.printf(Locale.ROOT, "  H2         user path %,10.0f rows/s  (%.1f s from the rename into the running jar's inbox"
                            + " to its intake line; by the log: %.1f s to `Taking batch` (poll + readLock=changed),"
                            + " %.1f s more until the submitter sees the rows (commit started), %.1f s more until"
                            + " the intake line (rest of the commit); jar %s)   load %s%n",
                    rows / logged, logged, taken, visible - taken, logged - visible,
                    jvm.isEmpty() ? "with the JVM's default heap" : jvm, Machine.load());
            if (Math.abs(wall - logged) > 0.5) {
                System.out.printf(Locale.ROOT, "  (the bench saw the line %.1f s after the rename)%n", wall);
            }
        } finally {
            if (p != null) {
                p.destroy(); // SIGTERM: the graceful stop
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
            Benchmark.deleteTree(home);
        }
    }

    /** Seconds from {@code drop} to the HH:mm:ss.SSS stamp that starts a log line (NaN without one). */
    private static double since(LocalTime drop, String line) {
        if (line == null || line.length() < 12) {
            return Double.NaN;
        }
        try {
            double s = Duration.between(drop, LocalTime.parse(line.substring(0, 12))).toMillis() / 1e3;
            return s < -43_200 ? s + 86_400 : s; // past midnight
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /** The jar's output, read as it comes. */
    private static final class Log {
        final List<String> lines = new ArrayList<>();

        Log(Process p) {
            CompletableFuture.runAsync(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (this) {
                            lines.add(line);
                            notifyAll();
                        }
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
            });
        }

        synchronized String find(String text) {
            return lines.stream().filter(l -> l.contains(text)).findFirst().orElse(null);
        }

        /** The first line with {@code text}, or null after the timeout or once a line with {@code failure} came. */
        synchronized String await(String text, Duration timeout, String... failure) throws InterruptedException {
            long end = System.nanoTime() + timeout.toNanos();
            for (String found; (found = find(text)) == null; ) {
                for (String f : failure) {
                    if (find(f) != null) {
                        return null;
                    }
                }
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                wait(Math.max(1, Math.min(200, left / 1_000_000)));
            }
            return find(text);
        }
    }
}
