package org.topupbatch.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The product's jar as {@code mvn package} built it, which the end-to-end tests run as a process. */
public final class BuiltJar {

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
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", path().toAbsolutePath().toString()));
        line.addAll(java.util.List.of(args));
        ProcessBuilder pb = new ProcessBuilder(line).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        int code = p.waitFor();
        if (code != 0) {
            throw new AssertionError(String.join(" ", args) + " exited with " + code + ":\n" + out);
        }
        return out;
    }
}
