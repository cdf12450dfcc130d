package org.topupbatch.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A class-data archive of the built jar (the JDK's application class-data sharing, -XX:SharedArchiveFile),
 * so that each of the suite's hundreds of jar starts maps the product's classes instead of loading and
 * verifying them again: a start then takes about half the CPU time (2.5 s down to 1.3 s on the CI
 * machine), and the end-to-end JVMs share two cores. The product runs the same code either way.
 *
 * <p>The archive is made once per built jar (named after the jar's size and time, so a rebuilt jar
 * gets a new one) by a short once run of the jar against its embedded sandbox, under a file lock so
 * that the suite's parallel test JVMs make it once between them. When it cannot be made, starts go
 * without it (slower, nothing else changes) and the reason is printed once.
 */
public final class StartArchive {

    private static final Duration TRAINING_LIMIT = Duration.ofMinutes(3);
    private static List<String> options;

    private StartArchive() {
    }

    /** The JVM options a jar start adds to use the archive; empty when it could not be made. */
    public static synchronized List<String> jvmOptions() {
        if (options == null) {
            options = make(BuiltJar.path().toAbsolutePath());
        }
        return options;
    }

    private static List<String> make(Path jar) {
        try {
            Path archive = jar.resolveSibling(jar.getFileName() + "-" + Files.size(jar) + "-"
                    + Files.getLastModifiedTime(jar).toMillis() + ".jsa");
            try (FileChannel lockFile = FileChannel.open(jar.resolveSibling(jar.getFileName() + ".jsa.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = lockFile.lock()) {
                if (!Files.isRegularFile(archive)) {
                    dropOlder(jar);
                    train(jar, archive);
                }
            }
            // cds logging off: a JVM that cannot map the archive says so on its output, which tests read
            return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off");
        } catch (IOException | RuntimeException | AssertionError e) {
            System.out.println("jar starts go without a class-data archive: " + e.getMessage());
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** The archives of jars built before this one (60 MB each): no start will use them again. */
    private static void dropOlder(Path jar) throws IOException {
        try (var old = Files.newDirectoryStream(jar.getParent(), jar.getFileName() + "-*.jsa")) {
            for (Path archive : old) {
                Files.deleteIfExists(archive);
            }
        }
    }

    /** A once run of a small batch on the embedded sandbox, whose loaded classes the JVM archives as it exits. */
    private static void train(Path jar, Path archive) throws IOException, InterruptedException {
        Path home = Files.createTempDirectory("topup-start-archive-");
        Path inbox = Files.createDirectories(home.resolve("inbox"));
        Files.writeString(inbox.resolve("training.csv"), """
                ref_id,product_sku,customer_no,customer_no_zone,max_price,order_no,customer_name,note
                ARCHIVE-1,ML86,123456789,2345,,SO-1,Training,
                ARCHIVE-2,ML172,987654321,1234,40000,SO-2,Training,
                """);
        Path made = archive.resolveSibling(archive.getFileName() + ".part"); // beside it: the move is atomic
        // the runs' own options, so that the archive is made by the JVM that will map it
        List<String> line = new ArrayList<>(List.of(BuiltJar.java()));
        line.addAll(BuiltJar.SHORT_RUN);
        line.addAll(List.of("-XX:ArchiveClassesAtExit=" + made, "-jar", jar.toString()));
        ProcessBuilder pb = new ProcessBuilder(line).directory(home.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(Map.of("TOPUP_MODE", "once", "TOPUP_INBOX", inbox.toString(),
                "TOPUP_REPORTS", home.resolve("reports").toString(), "TOPUP_DATA", home.resolve("data").toString(),
                // the webhook and management ports on, as in most of the tests' runs: their servers' classes
                // (Vert.x, Netty: some 2,300) are archived too, a start's CPU time about 0.3 s less again;
                // no webhook secret, so a pending order is looked up as it would be with webhooks off
                "TOPUP_WEBHOOK_HOST", "127.0.0.1", "TOPUP_WEBHOOK_PORT", Integer.toString(FreePorts.pick()),
                "TOPUP_MANAGEMENT_PORT", Integer.toString(FreePorts.pick()), "TOPUP_PENDING_TIMEOUT", "2s"));
        try {
            BoundedProcess.Result result = BoundedProcess.run(pb, TRAINING_LIMIT);
            if (!Files.isRegularFile(made)) {
                throw new IllegalStateException("the training run (exit " + result.exitCode() + ") wrote no archive: "
                        + result.output().lines().reduce((a, b) -> b).orElse(""));
            }
            Files.move(made, archive, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            try (var files = Files.walk(home)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
