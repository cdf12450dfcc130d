package org.topupbatch.campaign;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.topupbatch.testing.BoundedProcess;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.FreePorts;

/**
 * The built jar in a folder of its own (inbox, reports, data), run as separate processes one after
 * the other, each in {@code once} mode, killed or not. Only its outside is used: files, settings,
 * exit codes. Each run's output goes to {@code run-N.log} in the folder.
 */
final class ProductProcess {

    /** Exit code of a process halted by a crash point or killed with SIGKILL (128 + 9). */
    static final int KILLED = 137;

    final Path home;
    final Path inbox;
    final Path reports;
    final Path archive;
    final int webhookPort;
    final Map<String, String> env = new LinkedHashMap<>();
    /** Put before {@code java} when a run starts (e.g. {@code ip netns exec NS}: the run on a test host of its own). */
    final List<String> launcher = new ArrayList<>();
    private Process process;
    private Path log;
    private int runs;

    ProductProcess(Path home, String providerUrl) throws IOException {
        this.home = home;
        this.inbox = Files.createDirectories(home.resolve("inbox"));
        this.reports = home.resolve("reports");
        this.archive = home.resolve("data").resolve("archive");
        this.webhookPort = FreePorts.pick();
        env.put("TOPUP_INBOX", inbox.toString());
        env.put("TOPUP_REPORTS", reports.toString());
        env.put("TOPUP_DATA", home.resolve("data").toString());
        // the money guards as a user has them: the repeat guard on (CampaignBatch gives every row a
        // customer of its own but for its deliberate repeats), the price tolerance at its default, and
        // outages held briefly so that a campaign does not wait the default half hour for a product
        env.put("TOPUP_REPEAT_WINDOW", "24h");
        env.put("TOPUP_OUTAGE_WAIT", "4s");
        env.put("TOPUP_OUTAGE_RECHECK", "1s");
        env.put("TOPUP_WEBHOOK_HOST", "127.0.0.1");
        env.put("TOPUP_WEBHOOK_PORT", Integer.toString(webhookPort));
        env.put("TOPUP_MANAGEMENT_PORT", "0"); // campaigns run many products side by side
        env.put("TOPUP_BASE_URL", providerUrl);
        // the sandbox's demo account; a base URL without credentials is refused at start
        org.topupbatch.sandbox.SandboxConfig account = org.topupbatch.sandbox.SandboxConfig.defaults();
        env.put("TOPUP_API_KEY", account.apiKey());
        env.put("TOPUP_API_SECRET", account.apiSecret());
        env.put("TOPUP_WEBHOOK_SECRET", account.webhookSecret());
        env.put("TOPUP_MODE", "once");
        env.put("TOPUP_PENDING_TIMEOUT", "10m");
    }



    String webhookUrl() {
        return "http://127.0.0.1:" + webhookPort + "/webhook";
    }

    /** Written aside and moved in, as a careful ERP would. */
    void drop(String name, String content) throws IOException {
        Path tmp = home.resolve(name + ".part");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.move(tmp, inbox.resolve(name));
    }

    /** Starts one run; {@code crashAt} ({@code point:n}) arms the product's test-only crash hook, null for none. */
    Process start(String crashAt) throws IOException {
        List<String> cmd = new ArrayList<>(launcher);
        List<String> options = new ArrayList<>(List.of("-Xmx256m"));
        if (crashAt != null) {
            options.add("-Dtopup.internal.crash-at=" + crashAt);
        }
        cmd.addAll(BuiltJar.javaCommand(options));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true);
        log = home.resolve("run-" + (++runs) + ".log");
        pb.redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(env);
        process = pb.start();
        return process;
    }

    /**
     * Runs an operator command of the jar ({@code hold BATCH}, ...) on this product's journal, the
     * product stopped or running; returns its output, failing when it does not exit 0 (or 1 for a batch not taken yet).
     */
    String command(String... args) throws IOException, InterruptedException {
        try {
            return commandOnce(args);
        } catch (AssertionError e) {
            if (alive()) {
                throw e;
            }
            // the run ended (or was killed) while the command talked to its journal server: now the
            // command opens the journal itself
            return commandOnce(args);
        }
    }

    private String commandOnce(String... args) throws IOException, InterruptedException {
        List<String> cmd = BuiltJar.javaCommand();
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(env);
        BoundedProcess.Result result = BoundedProcess.run(pb, Duration.ofMinutes(2));
        String out = result.output();
        if (result.exitCode() != 0 && !(result.exitCode() == 1 && out.contains("no batch '"))) {
            throw new AssertionError(String.join(" ", args) + " failed: " + out);
        }
        return out;
    }

    /** What one command printed, stdout and stderr apart, and how it exited. */
    record CommandOutcome(List<String> args, int exit, String out, String err) {
    }

    /**
     * Runs an operator command as {@link #command} does, whatever its exit code, keeping stderr apart
     * from stdout (the command race campaign judges each); a command that does not end within
     * {@code limit} is killed and reported with exit -1.
     */
    CommandOutcome commandOutcome(Duration limit, String... args) throws IOException, InterruptedException {
        List<String> cmd = BuiltJar.javaCommand();
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(home, "command-", ".out");
        Path err = Files.createTempFile(home, "command-", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(env);
        pb.environment().remove("TOPUP_MODE");
        Process p = pb.start();
        boolean ended = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        CommandOutcome outcome = new CommandOutcome(List.of(args), ended ? p.exitValue() : -1,
                Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return outcome;
    }

    /** Waits for the run to end by itself; kills it and fails when it overruns. */
    int await(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            // what the journal says keeps the run going, asked while it still runs
            StringBuilder journal = new StringBuilder();
            for (String batch : new String[] {null, "1", "2", "3", "4", "5"}) {
                try {
                    journal.append(batch == null ? command("status") : command("status", batch)).append('\n');
                } catch (IOException | AssertionError e) {
                    journal.append("status ").append(batch).append(": ").append(e.getMessage()).append('\n');
                }
            }
            kill();
            throw new AssertionError("run " + runs + " did not end within " + limit + "; its output:\n" + output()
                    + "\nthe journal:\n" + journal);
        }
        return process.exitValue();
    }

    /** SIGKILL; returns whether the process was still alive to be killed. */
    boolean kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor();
            return true;
        }
        return false;
    }

    /** Lets the run go on for {@code delay}, then kills it; false when it had ended by itself. */
    boolean waitOrKillAfter(Duration delay) throws InterruptedException {
        if (process.waitFor(delay.toMillis(), TimeUnit.MILLISECONDS)) {
            return false;
        }
        return kill();
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    int runs() {
        return runs;
    }

    String output() {
        try {
            return log == null ? "" : Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** Every run's output, for a failure message. */
    String allOutput() {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= runs; i++) {
            try {
                sb.append("---- run ").append(i).append('\n')
                        .append(Files.readString(home.resolve("run-" + i + ".log"), StandardCharsets.UTF_8));
            } catch (IOException e) {
                sb.append("(no output)\n");
            }
        }
        return sb.toString();
    }
}
