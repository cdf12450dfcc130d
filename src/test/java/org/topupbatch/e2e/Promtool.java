package org.topupbatch.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus's own checker, as Debian's {@code prometheus} package installs it. A missing promtool
 * fails the test that needs it (never skips it): the metrics and alert rules would go unchecked.
 */
final class Promtool {

    private static final Path BINARY = Path.of("/usr/bin/promtool");

    /** What promtool printed and its exit code. */
    record Result(int exitCode, String output) {
    }

    private Promtool() {
    }

    /** Runs {@code promtool args...}, with {@code stdin} as its input when not null. */
    static Result run(String stdin, String... args) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError("promtool is missing (" + BINARY + "): the metrics and alert rules are checked"
                    + " with it; install Debian's prometheus package: 'apt-get install -y prometheus' (.ci/run does)");
        }
        List<String> command = new ArrayList<>();
        command.add(BINARY.toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("promtool " + String.join(" ", args) + " did not end within 30 s");
        }
        return new Result(p.exitValue(), output);
    }
}
