package org.topupbatch.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.topupbatch.settings.BalancePolicy;
import org.topupbatch.intake.BatchPlanner;
import org.topupbatch.intake.CsvBatchReader;
import org.topupbatch.intake.CustomerRules;
import org.topupbatch.intake.PlanSummary;
import org.topupbatch.provider.PriceCatalog;
import org.topupbatch.intake.RowValidator;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Product;

/**
 * The child process of the intake and journal-scale figures: takes one batch file into a journal
 * exactly as the product's intake does (reader, validator, planner, journal writer, one
 * transaction), then times one order's state change and a status query. Run by {@link Benchmark}
 * with a small heap; prints {@code key=value} lines for it to read.
 *
 * <p>args: csv file, data folder (H2) or "-", JDBC URL or "-" (H2), [user], [password]
 */
public final class IntakeRun {

    /** The products the benchmark's files order, at sandbox-like prices. */
    static final PriceCatalog CATALOG = new PriceCatalog() {
        private final Map<String, Product> products = Map.of(
                "FF100", new Product("FF100", "Free Fire 100", "FREE FIRE", "games", 14000, 14500, true, ""),
                "ML86", new Product("ML86", "Mobile Legends 86", "MOBILE LEGENDS", "games", 20000, 20500, true, ""));

        @Override
        public Optional<Product> find(String sku) {
            return Optional.ofNullable(products.get(sku));
        }
    };

    private IntakeRun() {
    }

    public static void main(String[] args) throws Exception {
        Path csv = Path.of(args[0]);
        Path data = "-".equals(args[1]) ? null : Path.of(args[1]);
        String url = "-".equals(args[2]) ? null : args[2];
        String user = args.length > 3 ? args[3] : null;
        String password = args.length > 4 ? args[4] : null;
        try (JdbcJournal journal = JdbcJournal.open(data == null ? Path.of(".") : data, url, user, password, Clock.systemUTC())) {
            long batchId = -1;
            if (Files.size(csv) > 0) {
                long start = System.nanoTime();
                PlanSummary summary;
                try (CsvBatchReader reader = CsvBatchReader.open(csv);
                     BatchWriter writer = journal.intake().openBatch(csv.getFileName().toString(), reader.delimiter(),
                             reader.extraHeaders(), null)) {
                    summary = new BatchPlanner(new RowValidator(CATALOG, CustomerRules.loadDefault()),
                            BalancePolicy.BEST_EFFORT).plan(reader, writer, Long.MAX_VALUE / 4);
                    batchId = writer.commit();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf(Locale.ROOT, "intake.rows=%d%nintake.accepted=%d%nintake.seconds=%.2f%n",
                        summary.rows(), summary.accepted(), seconds);
            }
            long small = takeSmallBatch(journal);
            List<RowRecord> rows = journal.status().rowsOfBatch(small, List.of(RowState.ACCEPTED), SMALL_ROWS);
            // the first calls pay for parsing statements and warming the JIT: timed are the calls after them
            double[] sending = new double[rows.size()];
            double[] outcome = new double[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                long t0 = System.nanoTime();
                journal.submission().markSending(rows.get(i).id(), Instant.now());
                long t1 = System.nanoTime();
                journal.submission().recordOutcome(rows.get(i).id(), RowState.SUCCESS, "SN" + i, 14000L, null);
                sending[i] = (t1 - t0) / 1e6;
                outcome[i] = (System.nanoTime() - t1) / 1e6;
            }
            // status queries once each, right after the changes: H2 answers a repeated query from its cache
            System.out.printf(Locale.ROOT, "journal.markSendingMs=%.3f%njournal.recordOutcomeMs=%.3f%n"
                    + "journal.statusSmallBatchMs=%.3f%n", medianAfterWarmUp(sending, WARM_UP),
                    medianAfterWarmUp(outcome, WARM_UP), timed(1, () -> journal.reporting().progress(small))[0]);
            if (batchId >= 0) {
                long big = batchId;
                System.out.printf(Locale.ROOT, "journal.statusBigBatchMs=%.3f%n", timed(1, () -> journal.reporting().progress(big))[0]);
            }
            // what `status` reads: the latest batches with their counts per state
            System.out.printf(Locale.ROOT, "journal.statusCommandMs=%.3f%n", timed(1, () -> journal.status().batchOverviews(30))[0]);
        }
        System.out.println("peak.rss.kb=" + ProcStatus.peakResidentKb(ProcessHandle.current().pid()));
    }

    /** Rows of the small batch: the first {@link #WARM_UP} state changes warm up, the rest are timed. */
    private static final int SMALL_ROWS = 60;
    private static final int WARM_UP = 10;

    private static double[] timed(int times, Runnable call) {
        double[] ms = new double[times];
        for (int i = 0; i < times; i++) {
            long t = System.nanoTime();
            call.run();
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        return ms;
    }

    /** The median of the calls after the first {@code warmUp}: one slow call (a page flush) does not move it. */
    private static double medianAfterWarmUp(double[] ms, int warmUp) {
        double[] timed = java.util.Arrays.copyOfRange(ms, warmUp, ms.length);
        java.util.Arrays.sort(timed);
        return timed.length % 2 == 1 ? timed[timed.length / 2] : (timed[timed.length / 2 - 1] + timed[timed.length / 2]) / 2;
    }

    /** A small batch the state-change and status figures work on, the same with or without the big one. */
    private static long takeSmallBatch(JdbcJournal journal) throws Exception {
        Path file = Files.createTempFile("small", ".csv");
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= SMALL_ROWS; i++) {
            csv.append("SMALL-").append(System.nanoTime()).append('-').append(i).append(",FF100,")
                    .append(20_000_000 + i).append('\n');
        }
        Files.writeString(file, csv);
        try (CsvBatchReader reader = CsvBatchReader.open(file);
             BatchWriter writer = journal.intake().openBatch("small.csv", reader.delimiter(), List.of(), null)) {
            new BatchPlanner(new RowValidator(CATALOG, CustomerRules.loadDefault()), BalancePolicy.BEST_EFFORT)
                    .plan(reader, writer, Long.MAX_VALUE / 4);
            return writer.commit();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
