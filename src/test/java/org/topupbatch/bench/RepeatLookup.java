package org.topupbatch.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/**
 * The repeat guard's look-up (docs/batch-files-and-reports.md#rejected-rows, topup.repeat-window) on a journal of
 * {@code bench.repeat.orders} (1,000,000) orders, each a customer of its own, on H2 and PostgreSQL:
 * what intake asks per chunk of 1,000 rows (1,000 repeat keys in one query, half of them present),
 * and one key alone (what a row outside the announced chunk costs). Medians after a warm-up; keys
 * drawn at random so that no answer comes from the cache of the one before.
 */
final class RepeatLookup {

    static final int ORDERS = Integer.getInteger("bench.repeat.orders", 1_000_000);
    private static final int PER_BATCH = 100_000;

    private RepeatLookup() {
    }

    static void run() throws Exception {
        System.out.printf(Locale.ROOT, "%n== repeat look-up: a journal of %,d orders ==%n", ORDERS);
        Path home = Files.createTempDirectory("topup-bench-repeat");
        try (JdbcJournal h2 = JdbcJournal.open(home, "", null, null, Clock.systemUTC())) {
            write("H2", h2);
            lookUps("H2", h2);
        } finally {
            Benchmark.deleteTree(home);
        }
        try (EmbeddedPostgres pg = EmbeddedPostgres.start();
             JdbcJournal journal = JdbcJournal.open(Path.of("."), pg.getJdbcUrl("postgres", "postgres"), "postgres",
                     "postgres", Clock.systemUTC())) {
            write("PostgreSQL", journal);
            lookUps("PostgreSQL, right after the writes (no statistics yet)", journal);
            explain(pg);
            // what autovacuum does within a minute or so of a big intake (10 % of the table changed)
            try (java.sql.Connection c = pg.getPostgresDatabase().getConnection(); java.sql.Statement st = c.createStatement()) {
                st.execute("ANALYZE batch_row");
            }
            lookUps("PostgreSQL, after ANALYZE", journal);
            explain(pg);
        }
    }

    /** The plan PostgreSQL makes for one chunk's look-up: it must use ix_batch_row_repeat, never scan batch_row. */
    private static void explain(EmbeddedPostgres pg) throws Exception {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 1_000; i++) {
            in.append(i == 0 ? "" : ", ").append('\'').append(key(i * 997L % ORDERS).replace("\u001F", "' || chr(31) || '"))
                    .append('\'');
        }
        String sql = "EXPLAIN (ANALYZE, COSTS OFF) SELECT r.repeat_key, r.ref_id, r.batch_id, r.line, r.state, r.sent_at,"
                + " r.created_at, b.file_name, b.halt_reason FROM batch_row r JOIN batch b ON b.id = r.batch_id"
                + " WHERE r.repeat_key IN (" + in + ") AND (r.sent_at >= 0 OR r.created_at >= 0)";
        try (java.sql.Connection c = pg.getPostgresDatabase().getConnection(); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String line = rs.getString(1);
                System.out.println("    " + (line.length() > 200 ? line.substring(0, 200) + "..." : line));
            }
        }
    }

    static String key(long customer) {
        return "TSEL10\u001F08" + (1_000_000_000L + customer) + "\u001F";
    }

    private static void write(String database, JdbcJournal journal) {
        long t = System.nanoTime();
        for (int from = 0; from < ORDERS; from += PER_BATCH) {
            try (BatchWriter writer = journal.intake().openBatch("repeat-" + from + ".csv", ',', List.of(), "archive")) {
                for (int i = from; i < Math.min(ORDERS, from + PER_BATCH); i++) {
                    writer.add(new NewRow(i - from, i - from + 2L, "RP-" + i, "TSEL10", "08" + (1_000_000_000L + i), null,
                            null, List.of(), RowState.ACCEPTED, 10_450L, null, key(i)));
                }
                writer.commit();
            }
        }
        System.out.printf(Locale.ROOT, "  %-10s journal of %,d orders written in %.1f s   load %s%n", database, ORDERS,
                (System.nanoTime() - t) / 1e9, Machine.load());
    }

    private static void lookUps(String database, JdbcJournal journal) {
        long windowStart = System.currentTimeMillis() - Duration.ofHours(24).toMillis();
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) { // warm-up
            journal.intake().repeatsAmong(keys(random, 1_000), windowStart);
        }
        double[] chunk = new double[30];
        int found = 0;
        for (int i = 0; i < chunk.length; i++) {
            List<String> keys = keys(random, 1_000);
            long s = System.nanoTime();
            found += journal.intake().repeatsAmong(keys, windowStart).size();
            chunk[i] = (System.nanoTime() - s) / 1e6;
        }
        double[] single = new double[200];
        for (int i = 0; i < single.length; i++) {
            List<String> keys = keys(random, 1);
            long s = System.nanoTime();
            journal.intake().repeatsAmong(keys, windowStart);
            single[i] = (System.nanoTime() - s) / 1e6;
        }
        System.out.printf(Locale.ROOT, "  %-10s 1,000 keys (one chunk of rows): median %.1f ms, max %.1f ms (%d of %d found);"
                        + " 1 key: median %.2f ms, max %.1f ms   load %s%n", database, median(chunk), max(chunk), found,
                chunk.length * 1_000, median(single), max(single), Machine.load());
    }

    /** {@code n} keys, half of customers in the journal, half of customers never seen. */
    private static List<String> keys(Random random, int n) {
        List<String> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add(key(i % 2 == 0 && n > 1 || n == 1 && random.nextBoolean()
                    ? random.nextInt(ORDERS) : ORDERS + random.nextInt(ORDERS)));
        }
        return keys;
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(0);
    }
}
