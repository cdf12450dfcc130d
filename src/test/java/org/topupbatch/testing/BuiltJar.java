package org.topupbatch.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The product's jar as {@code mvn package} built it, which the end-to-end tests run as a process. */
public final class BuiltJar {

    /** A command's longest run: a JVM start and a journal query take seconds even on a loaded CI machine. */
    private static final java.time.Duration COMMAND_LIMIT = java.time.Duration.ofMinutes(2);

    private BuiltJar() {
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
        java.util.List<String> line = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        // a short run, many at once on two cores: start-up matters more than peak speed (as JarRun's);
        // the C2 compiler alone cost a command about 0.6 s of CPU time (1.5 s -> 0.9 s without it)
        line.add("-XX:TieredStopAtLevel=1");
        line.addAll(StartArchive.jvmOptions());
        line.addAll(java.util.List.of("-jar", path().toAbsolutePath().toString()));
        line.addAll(java.util.List.of(args));
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
