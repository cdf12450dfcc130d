package org.topupbatch.intake;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;
import org.topupbatch.command.CommandContext;
import org.topupbatch.command.PlanCommand;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.settings.SettingsLookup;
import org.topupbatch.testing.FastClock;

/**
 * {@code plan FILE.csv} run in this JVM, as the jar's dispatch runs it ({@link PlanCommand} with its
 * own out and err), against one sandbox started once: a plan takes about 0.1 s instead of a JVM
 * start. The sandbox and the plan's rate budget share a clock running 60 times faster, so a few
 * hundred plans (three provider calls each) never wait for the account's 300 requests a minute.
 * The journal (ref_ids of earlier batches, the rate budget's call log) is an H2 database in memory,
 * migrated once: opening it costs a plan about 20 ms less than the embedded H2 file, and the file is
 * not what these plans test.
 *
 * <p>What the jar would print on stderr besides the command's own lines is its log at WARN and up
 * (the commands log there): those events are caught too, the sandbox's own left out.
 */
final class InProcessPlan implements AutoCloseable {

    /** Longest line a plan may print: a value is cut, with its length said, long before that. */
    static final int MAX_LINE = 2_000;

    /**
     * A stack trace's lines, or the name of an exception or error class. Quantifiers are bounded: a
     * plan may print a value of a million letters, and an unbounded {@code [A-Za-z]+Exception} would
     * take minutes to fail on it.
     */
    private static final Pattern TRACE = Pattern.compile(
            "(?m)^\\s{0,8}at [\\w$.]{1,200}\\(|^Caused by|Exception\\b|\\bjava\\.lang\\.|[A-Z][a-z]{1,30}Error\\b");

    private final SandboxProvider sandbox;
    private final FastClock clock = new FastClock(Instant.now(), 60);
    private final Path data;
    private final String journalUrl = "jdbc:h2:mem:in-process-plan-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final JdbcJournal journal;
    private final Properties defaults = new Properties();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "in-process-plan");
        t.setDaemon(true);
        return t;
    });
    private final List<String> logged = new ArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            if (event.getLevel().isGreaterOrEqual(Level.WARN) && !event.getLoggerName().startsWith("org.topupbatch.sandbox")) {
                synchronized (logged) {
                    logged.add(event.getLevel() + " " + event.getLoggerName() + " " + event.getFormattedMessage()
                            + (event.getThrowableProxy() == null ? "" : "\n" + event.getThrowableProxy().getClassName()
                            + ": " + event.getThrowableProxy().getMessage() + "\n\tat (a stack trace)"));
                }
            }
        }
    };

    /** What one plan did: its exit code (null when it threw or overran), its streams, its WARN+ log. */
    record Outcome(Integer exit, String out, String err, List<String> log, Throwable thrown, long millis) {

        /** stdout, stderr and the log as the operator's terminal shows them. */
        String all() {
            return out + err + String.join("\n", log);
        }

        List<String> errLines() {
            List<String> lines = new ArrayList<>(err.lines().filter(l -> !l.isEmpty()).toList());
            lines.addAll(log);
            return lines;
        }
    }

    InProcessPlan(Path dir) throws IOException {
        this.data = dir.resolve("data");
        try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
            defaults.load(in);
        }
        journal = JdbcJournal.open(data, journalUrl, "sa", "");
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(23L), 0);
        sandbox.setClock(clock);
        appender.setContext((ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory());
        appender.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(appender);
    }

    Outcome plan(Path file) {
        return plan(file, Map.of());
    }

    /** Plans {@code file} with the settings of {@code env} (TOPUP_* names) besides the provider's. */
    Outcome plan(Path file, Map<String, String> env) {
        Map<String, String> settings = new LinkedHashMap<>();
        SandboxConfig demo = SandboxConfig.defaults();
        settings.put("TOPUP_DATA", data.toString());
        settings.put("TOPUP_DB_URL", journalUrl);
        settings.put("TOPUP_DB_USER", "sa");
        settings.put("TOPUP_BASE_URL", sandbox.baseUrl());
        settings.put("TOPUP_API_KEY", demo.apiKey());
        settings.put("TOPUP_API_SECRET", demo.apiSecret());
        settings.putAll(env);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        synchronized (logged) {
            logged.clear();
        }
        long start = System.nanoTime();
        Future<Integer> run = thread.submit(() -> new PlanCommand(new CommandContext(new SettingsLookup(defaults, settings, new Properties()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), clock))
                .run(List.of(file.toString())));
        Integer exit = null;
        Throwable thrown = null;
        try {
            exit = run.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            run.cancel(true);
            thrown = new AssertionError("plan did not end within 60 s");
        } catch (java.util.concurrent.ExecutionException e) {
            thrown = e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thrown = e;
        }
        List<String> log;
        synchronized (logged) {
            log = List.copyOf(logged);
        }
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), log, thrown,
                (System.nanoTime() - start) / 1_000_000);
    }

    /** The file's bytes and modification time, to show that a plan left it as it was. */
    record Snapshot(byte[] bytes, FileTime modified) {
        static Snapshot of(Path file) throws IOException {
            return new Snapshot(Files.readAllBytes(file), Files.getLastModifiedTime(file));
        }

        boolean same(Path file) throws IOException {
            return Arrays.equals(bytes, Files.readAllBytes(file)) && modified.equals(Files.getLastModifiedTime(file));
        }
    }

    /**
     * What the plan of any file, however broken, must be (issue 23): exit 0, 1 or 2; nothing thrown
     * and no stack trace; no raw control character or line break inside a line (values escaped);
     * no line longer than {@link #MAX_LINE}; a fatal case (1) one line on stderr, {@code topup-batch: ...};
     * otherwise the summary printed; the file unchanged. Empty when all holds.
     */
    static List<String> problems(Outcome o, Path file, Snapshot before) throws IOException {
        List<String> problems = new ArrayList<>();
        if (o.thrown() != null) {
            problems.add("plan threw " + o.thrown() + " (the jar would print a stack trace)");
        } else if (o.exit() < 0 || o.exit() > 2) {
            problems.add("exit " + o.exit() + " (0, 1 or 2 expected)");
        }
        String all = o.all();
        if (TRACE.matcher(all).find()) {
            problems.add("a stack trace or an exception's name in the output: " + firstMatchLine(all));
        }
        for (String line : all.split("\n", -1)) {
            int bad = firstRawControl(line);
            if (bad >= 0) {
                problems.add(String.format("a raw control character U+%04X in an output line: %s", (int) line.charAt(bad),
                        shown(line)));
                break;
            }
        }
        for (String line : all.split("\n", -1)) {
            if (line.length() > MAX_LINE) {
                problems.add("an output line of " + line.length() + " characters: " + shown(line));
                break;
            }
        }
        if (o.exit() != null && o.exit() == 1) {
            List<String> err = o.errLines();
            if (err.size() != 1 || !err.get(0).startsWith("topup-batch: ")) {
                problems.add("exit 1 with " + err.size() + " lines on stderr and in the log instead of one 'topup-batch: ...': "
                        + shown(String.join(" | ", err)));
            }
        }
        if (o.exit() != null && (o.exit() == 0 || o.exit() == 2)
                && !(o.out().contains("\nRows:     ") && o.out().contains("\nTime:     "))) {
            problems.add("exit " + o.exit() + " without the plan's summary: " + shown(o.out()));
        }
        if (!before.same(file)) {
            problems.add("the file was changed");
        }
        return problems;
    }

    /** The first character a terminal would act on: C0 controls but the line's end, DEL, C1 controls, U+2028/2029. */
    static int firstRawControl(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if ((c < 0x20 && c != '\n') || (c >= 0x7F && c <= 0x9F) || c == '\u2028' || c == '\u2029') {
                return i;
            }
        }
        return -1;
    }

    private static String firstMatchLine(String all) {
        var m = TRACE.matcher(all);
        if (!m.find()) {
            return "";
        }
        int start = all.lastIndexOf('\n', m.start()) + 1;
        int end = all.indexOf('\n', m.end());
        return shown(all.substring(start, end < 0 ? all.length() : end));
    }

    /** A line for a failure message: control characters made visible, cut at 300 characters. */
    static String shown(String text) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < text.length() && b.length() < 300; i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                b.append("⏎");
            } else if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == '\u2028' || c == '\u2029') {
                b.append(String.format("<U+%04X>", (int) c));
            } else {
                b.append(c);
            }
        }
        return text.length() > 300 ? b + "... (" + text.length() + " characters)" : b.toString();
    }

    @Override
    public void close() {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(appender);
        thread.shutdownNow();
        sandbox.close();
        journal.close();
        try (Connection c = DriverManager.getConnection(journalUrl, "sa", ""); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
