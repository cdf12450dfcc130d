package org.topupbatch.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Runs a short-lived process (one of the jar's commands) to its end within a deadline. Its output
 * goes to a file, not to a pipe read before the wait: reading a pipe to its end blocks as long as
 * the process (or a child holding the pipe) lives, so a hung process would make the deadline moot.
 * A process that overruns is killed and fails the caller with what it had printed.
 */
public final class BoundedProcess {

    /** How a finished process ended: its exit code and everything it printed (out and err). */
    public record Result(int exitCode, String output) {
    }

    private BoundedProcess() {
    }

    public static Result run(ProcessBuilder builder, Duration limit) throws IOException, InterruptedException {
        Path log = Files.createTempFile("topup-command-", ".log");
        try {
            Process p = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(String.join(" ", builder.command()) + " did not end within " + limit
                        + " and was killed; its output:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
