package org.topupbatch.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The product's jar as {@code mvn package} built it, which the end-to-end tests run as a process. */
public final class BuiltJar {

    /** A command's longest run: a JVM start and a journal query take seconds even on a loaded CI machine. */
    private static final java.time.Duration COMMAND_LIMIT = java.time.Duration.ofMinutes(2);

    /**
     * The JVM options of the suite's jar runs: hundreds of short runs, many at once on two cores, where
     * start-up matters more than peak speed. The C2 compiler alone cost a command about 0.6 s of CPU time
     * (1.5 s -> 0.9 s without it); one C1 compiler thread and the serial collector took a once run on the
     * sandbox from 2.73 s to 2.54 s of CPU time (2026-12-03, means of four). The product runs the same code.
     */
    static final List<String> SHORT_RUN = List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC");

    private BuiltJar() {
    }

    /**
     * The command line that starts the built jar as the suite runs it: java, {@link #SHORT_RUN}, the
     * class-data archive ({@link StartArchive}), then {@code jvmOptions}, then {@code -jar JAR}; the
     * caller adds the jar's arguments to the list it gets (a new one each time).
     */
    public static List<String> javaCommand(List<String> jvmOptions) {
        List<String> line = new ArrayList<>();
        line.add(java());
        line.addAll(SHORT_RUN);
        line.addAll(StartArchive.jvmOptions());
        line.addAll(jvmOptions);
        line.add("-jar");
        line.add(path().toAbsolutePath().toString());
        return line;
    }

    /** {@link #javaCommand(List)} with no options of the caller's own. */
    public static List<String> javaCommand() {
        return javaCommand(List.of());
    }

    /** The java launcher of the JDK that runs the tests (and every process they start on the JVM). */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public static Path path() {
        Path jar = Path.of(System.getProperty("topup.jar", "target/topup-batch.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the built jar is missing: " + jar + " (run mvn package first)");
        }
        return jar;
    }

    /**
     * One of the jar's commands ({@code status}, {@code cancel BATCH}...) with exactly these settings
     * (no TOPUP_ variable of the test's own environment), as an operator runs it beside a running
     * product; its exit code must be 0. Returns its output.
     */
    public static String command(java.util.Map<String, String> env, String... args)
            throws java.io.IOException, InterruptedException {
        List<String> line = javaCommand();
        line.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(line);
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(env);
        BoundedProcess.Result result = BoundedProcess.run(pb, COMMAND_LIMIT);
        if (result.exitCode() != 0) {
            throw new AssertionError(String.join(" ", args) + " exited with " + result.exitCode() + ":\n" + result.output());
        }
        return result.output();
    }
}
