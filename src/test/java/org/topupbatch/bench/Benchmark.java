package org.topupbatch.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.topupbatch.testing.BuiltJar;

/**
 * Prints the performance figures of BENCHMARKS.md; asserts nothing. One figure or all:
 *
 * <pre>
 * mvn -B -ntp -q -DskipTests package test-compile
 * java -cp "target/test-classes:target/topup-batch.jar:$(cat target/bench.classpath)" org.topupbatch.bench.Benchmark all
 * </pre>
 *
 * Figures: {@code intake} (and journal scale, measured in the same child process; and the user path, see
 * {@link UserPathIntake}), {@code userpath} (that alone), {@code plan}, {@code rate},
 * {@code restart}, {@code overhead}, {@code settle}, {@code start}; {@code all} runs each in turn.
 * The machine's load (uptime) is printed beside each figure, since the figures move with it.
 */
public final class Benchmark {

    static final int INTAKE_ROWS = Integer.getInteger("bench.intake.rows", 1_000_000);

    private Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        List<String> figures = args.length == 0 ? List.of("all") : List.of(args);
        System.out.println("machine: " + Machine.describe());
        for (String figure : figures) {
            switch (figure) {
                case "intake", "journal" -> intake();
                case "userpath" -> userPath();
                case "plan" -> PlanScale.run();
                case "rate", "cpu" -> OrderFigures.rate();
                case "restart" -> OrderFigures.restart();
                case "overhead" -> OrderFigures.overhead();
                case "settle" -> OrderFigures.settle();
                case "start" -> OrderFigures.start();
                case "repeat" -> RepeatLookup.run();
                case "guards" -> MoneyGuardFigures.run();
                case "gateway" -> GatewayFigures.run();
                case "operator" -> OperatorFigures.run();
                case "reconcile" -> ReconcileFigures.run();
                case "accounts" -> AccountsFigures.run();
                case "all" -> {
                    OrderFigures.start();
                    intake();
                    PlanScale.run();
                    OrderFigures.rate();
                    OrderFigures.restart();
                    OrderFigures.overhead();
                    OrderFigures.settle();
                    RepeatLookup.run();
                    MoneyGuardFigures.run();
                    GatewayFigures.run();
                    OperatorFigures.run();
                    ReconcileFigures.run();
                    AccountsFigures.run();
                }
                default -> {
                    System.err.println("unknown figure '" + figure
                            + "'; one of: all, intake, journal, userpath, plan, rate, cpu, restart, overhead, settle, start, repeat, guards, gateway, operator, reconcile, accounts");
                    System.exit(2);
                }
            }
        }
    }

    // ---- intake scale and journal scale

    static void intake() throws Exception {
        Path home = Files.createTempDirectory("topup-bench-intake");
        try {
            Path csv = home.resolve("million.csv");
            writeBigFile(csv, INTAKE_ROWS);
            Path empty = Files.createFile(home.resolve("empty.csv"));
            System.out.printf(Locale.ROOT, "%n== intake scale: %,d rows (%.1f MB), -Xmx256m ==%n", INTAKE_ROWS,
                    Files.size(csv) / 1e6);
            System.out.println("  baseline: the file parsed by a plain CSV reader (Commons CSV), nothing stored");
            long t = System.nanoTime();
            long parsed = PlainCsv.count(csv);
            double plain = (System.nanoTime() - t) / 1e9;
            System.out.printf(Locale.ROOT, "  plain parse            %,10.0f rows/s  (%d rows, %.1f s)   load %s%n",
                    parsed / plain, parsed, plain, Machine.load());

            Path h2 = home.resolve("h2");
            Map<String, String> out = child(csv, h2, "-");
            long bytes = folderSize(h2.resolve("journal"));
            report("H2", out, bytes);
            UserPathIntake.run(csv, INTAKE_ROWS); // the same file, dropped into the running jar's inbox
            long t0 = System.nanoTime();
            org.topupbatch.journal.H2JournalCompaction.Sizes compacted = org.topupbatch.journal.H2JournalCompaction.compact(h2);
            System.out.printf(Locale.ROOT, "  H2         after `compact-journal` (product stopped): %5.0f journal bytes/row (%.1f s)   load %s%n",
                    (double) compacted.after() / Math.max(1, Long.parseLong(out.getOrDefault("intake.rows", "1"))),
                    (System.nanoTime() - t0) / 1e9, Machine.load());
            Map<String, String> zero = child(empty, home.resolve("h2-empty"), "-");
            journalScale("H2", zero, out);
            deleteTree(h2);

            try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
                String url = pg.getJdbcUrl("postgres", "postgres");
                Map<String, String> pgOut = child(csv, null, url, "postgres", "postgres");
                long pgBytes;
                try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT pg_total_relation_size('batch_row')")) {
                    rs.next();
                    pgBytes = rs.getLong(1);
                }
                report("PostgreSQL", pgOut, pgBytes);
                try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                    s.execute("DROP SCHEMA public CASCADE");
                    s.execute("CREATE SCHEMA public");
                }
                Map<String, String> pgZero = child(empty, null, url, "postgres", "postgres");
                journalScale("PostgreSQL", pgZero, pgOut);
            }
        } finally {
            deleteTree(home);
        }
    }

    /** The intake figure's file dropped into the running jar's inbox, alone ({@link UserPathIntake}). */
    static void userPath() throws Exception {
        Path home = Files.createTempDirectory("topup-bench-userpath-file");
        try {
            Path csv = home.resolve("million.csv");
            writeBigFile(csv, INTAKE_ROWS);
            System.out.printf(Locale.ROOT, "%n== intake on the user's path: %,d rows (%.1f MB) ==%n", INTAKE_ROWS,
                    Files.size(csv) / 1e6);
            UserPathIntake.run(csv, INTAKE_ROWS);
        } finally {
            deleteTree(home);
        }
    }

    private static void report(String db, Map<String, String> out, long bytes) {
        long rows = Long.parseLong(out.getOrDefault("intake.rows", "0"));
        double seconds = Double.parseDouble(out.getOrDefault("intake.seconds", "NaN"));
        System.out.printf(Locale.ROOT, "  %-10s intake    %,10.0f rows/s  (%.1f s), %5.0f journal bytes/row"
                        + " (batch_row + indexes; H2: whole file), peak resident %4d MB   load %s%n",
                db, rows / seconds, seconds, rows == 0 ? Double.NaN : (double) bytes / rows,
                Long.parseLong(out.getOrDefault("peak.rss.kb", "-1024")) / 1024, Machine.load());
    }

    private static void journalScale(String db, Map<String, String> zero, Map<String, String> full) {
        System.out.printf(Locale.ROOT, "  %-10s journal   with 0 / %,d rows in the journal: state change (markSending, median of 50)"
                        + " %.2f / %.2f ms, outcome (median) %.2f / %.2f ms, status of a 60-row batch %.2f / %.2f ms,"
                        + " `status` (latest 30 batches) %.1f / %.1f ms; status of the big batch %s ms   load %s%n", db,
                INTAKE_ROWS, d(zero, "journal.markSendingMs"), d(full, "journal.markSendingMs"),
                d(zero, "journal.recordOutcomeMs"), d(full, "journal.recordOutcomeMs"),
                d(zero, "journal.statusSmallBatchMs"), d(full, "journal.statusSmallBatchMs"),
                d(zero, "journal.statusCommandMs"), d(full, "journal.statusCommandMs"),
                full.getOrDefault("journal.statusBigBatchMs", "?"), Machine.load());
    }

    private static double d(Map<String, String> out, String key) {
        return Double.parseDouble(out.getOrDefault(key, "NaN"));
    }

    /** Runs {@link IntakeRun} with -Xmx256m and returns its key=value lines. */
    private static Map<String, String> child(Path csv, Path data, String url, String... login) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(BuiltJar.java(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                IntakeRun.class.getName(), csv.toString(), data == null ? "-" : data.toString(), url));
        cmd.addAll(List.of(login));
        Path log = Files.createTempFile("intake-run", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(log)) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.contains(" ")) {
                out.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        if (p.exitValue() != 0 || !out.containsKey("peak.rss.kb")) {
            System.out.println("  !! intake child failed (exit " + p.exitValue() + "), its output: " + log);
        } else {
            Files.delete(log);
        }
        return out;
    }

    /** Valid rows, each ref_id new: the whole file is accepted, nothing is ordered (no submitter runs). */
    static void writeBigFile(Path csv, int rows) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            w.write("ref_id,product_sku,customer_no,max_price\n");
            for (int i = 1; i <= rows; i++) {
                w.write("INV-2024-" + i + ",FF100," + (100_000_000 + i) + ",15000\n");
            }
        }
    }

    static long folderSize(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
