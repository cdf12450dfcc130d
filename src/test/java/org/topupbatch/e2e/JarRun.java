package org.topupbatch.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.PostgresServer;

/**
 * The built jar run as a separate process, in a folder of its own (inbox, reports, data),
 * against a provider the test controls. Its output goes to {@code run.log} in that folder.
 */
final class JarRun {

    final Path home;
    final Path inbox;
    final Path reports;
    final Path data;
    final Map<String, String> env = new LinkedHashMap<>();
    /** JVM options of the child, before {@code -jar} (e.g. a test-only {@code -Dtopup.internal.*} hook). */
    final List<String> jvm = new ArrayList<>();
    private PostgresServer.Database postgres;
    private Process process;
    private Path log;
    private int runs;

    JarRun(Path home) throws IOException {
        this.home = home;
        this.inbox = Files.createDirectories(home.resolve("inbox"));
        this.reports = home.resolve("reports");
        this.data = home.resolve("data");
        env.put("TOPUP_INBOX", inbox.toString());
        env.put("TOPUP_REPORTS", reports.toString());
        env.put("TOPUP_DATA", data.toString());
        // the suite's files order a few customers again and again (generated rows cycle through a handful;
        // files are dropped again under new names): the repeat guard (24h by default) is off unless a
        // test turns it on, as RepeatGuard tests do
        env.put("TOPUP_REPEAT_WINDOW", "0");
        env.put("TOPUP_WEBHOOK_HOST", "127.0.0.1");
        env.put("TOPUP_WEBHOOK_PORT", Integer.toString(FreePorts.pick()));
        env.put("TOPUP_MANAGEMENT_PORT", Integer.toString(FreePorts.pick())); // never the shared default 8086
    }



    int webhookPort() {
        return Integer.parseInt(env.get("TOPUP_WEBHOOK_PORT"));
    }

    /** Orders from the provider at this address with the sandbox's demo account (the sandboxes tests start use it). */
    JarRun provider(String baseUrl) {
        org.topupbatch.sandbox.SandboxConfig demo = org.topupbatch.sandbox.SandboxConfig.defaults();
        env.put("TOPUP_BASE_URL", baseUrl);
        env.put("TOPUP_API_KEY", demo.apiKey());
        env.put("TOPUP_API_SECRET", demo.apiSecret());
        return this;
    }

    /** The child journals to this PostgreSQL database instead of the embedded H2 file. */
    JarRun journalOn(PostgresServer.Database database) {
        postgres = database;
        env.put("TOPUP_DB_URL", database.url());
        env.put("TOPUP_DB_USER", database.user());
        env.put("TOPUP_DB_PASSWORD", database.password());
        return this;
    }

    /** Journals on the given database (POSTGRESQL: a fresh one of the server), or on H2. */
    JarRun journalOn(JournalDatabase journal, PostgresServer server) {
        return journal == JournalDatabase.POSTGRESQL ? journalOn(server.createDatabase()) : this;
    }

    /**
     * Rows of the batches of this file name in the PostgreSQL journal: proof that the child
     * really journaled there. Zero for a run on H2.
     */
    long rowsJournaledFor(String fileName) throws SQLException {
        if (postgres == null) {
            return 0;
        }
        try (Connection c = postgres.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM batch_row r JOIN batch b ON b.id = r.batch_id WHERE b.file_name = ?")) {
            ps.setString(1, fileName);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Changes the stopped product's journal behind its back, as a test that needs a journal disagreeing with
     * the provider does: each statement must change exactly one row.
     */
    void changeJournal(String... statements) throws SQLException {
        if (postgres != null) {
            try (Connection c = postgres.connect()) {
                changeEach(c, statements);
            }
            return;
        }
        try (var pool = org.topupbatch.journal.JournalDataSource.open(data, "", null, null); Connection c = pool.getConnection()) {
            changeEach(c, statements);
        }
    }

    private static void changeEach(Connection c, String... statements) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            for (String sql : statements) {
                int changed = s.executeUpdate(sql);
                if (changed != 1) {
                    throw new AssertionError(sql + " changed " + changed + " rows, not 1");
                }
            }
        }
    }

    Path drop(String name, String content) throws IOException {
        return drop(name, content.getBytes(StandardCharsets.UTF_8));
    }

    Path drop(String name, byte[] content) throws IOException {
        // Written aside and moved in, as a careful ERP would; the product copes with slow writers too.
        Path tmp = home.resolve(name + ".part");
        Files.write(tmp, content);
        return Files.move(tmp, inbox.resolve(name));
    }

    Process start(String... args) throws IOException {
        List<String> options = new ArrayList<>(List.of("-Xmx512m"));
        options.addAll(jvm);
        List<String> cmd = BuiltJar.javaCommand(options);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true);
        log = home.resolve("run-" + (++runs) + ".log");
        pb.redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("TOPUP_"));
        pb.environment().putAll(env);
        process = pb.start();
        return process;
    }

    /** Runs to the end and returns the exit code; kills the process and fails when it overruns. */
    int runOnce(Duration limit) throws Exception {
        env.put("TOPUP_MODE", "once");
        Process p = start();
        if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the run did not end within " + limit + "; its output:\n" + output());
        }
        return p.exitValue();
    }

    void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly(); // SIGKILL
            process.waitFor();
        }
    }

    String output() {
        try {
            return log == null ? "" : Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }
}
