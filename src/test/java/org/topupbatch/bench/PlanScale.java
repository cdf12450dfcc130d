package org.topupbatch.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.topupbatch.testing.BuiltJar;

/**
 * The plan-scale figure: {@code java -Xmx256m -jar topup-batch.jar plan FILE} on the intake
 * figure's 1,000,000-row file, as an operator runs it (JVM and embedded sandbox start included),
 * with a balance that covers the file so that every row is checked to the end. Wall time, rows per
 * second and peak resident memory (VmHWM, sampled until the process ends); baseline: the same file
 * counted by a plain CSV reader in this process.
 */
final class PlanScale {

    private PlanScale() {
    }

    static void run() throws Exception {
        Path home = Files.createTempDirectory("topup-bench-plan");
        try {
            Path csv = home.resolve("plan.csv");
            Benchmark.writeBigFile(csv, Benchmark.INTAKE_ROWS);
            System.out.printf(Locale.ROOT, "%n== plan scale: %,d rows (%.1f MB), -Xmx256m ==%n", Benchmark.INTAKE_ROWS,
                    Files.size(csv) / 1e6);
            PlainCsv.count(csv); // warm the reader once: the baseline should not pay for class loading
            long t = System.nanoTime();
            long parsed = PlainCsv.count(csv);
            double plain = (System.nanoTime() - t) / 1e9;
            System.out.printf(Locale.ROOT, "  plain parse            %,10.0f rows/s  (%d rows, %.2f s)   load %s%n",
                    parsed / plain, parsed, plain, Machine.load());

            Path jar = Path.of(System.getProperty("topup.jar", "target/topup-batch.jar")).toAbsolutePath();
            Path log = home.resolve("plan.out");
            long start = System.nanoTime();
            Process p = new ProcessBuilder(List.of(BuiltJar.java(), "-Xmx256m",
                    "-Dtopup.sandbox.balance=1000000000000000", "-jar", jar.toString(), "plan", csv.toString()))
                    .directory(home.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            long peakKb = 0;
            while (!p.waitFor(50, TimeUnit.MILLISECONDS)) {
                peakKb = Math.max(peakKb, ProcStatus.peakResidentKb(p.pid()));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            String rows = Files.readAllLines(log).stream().filter(l -> l.startsWith("Rows:")).findFirst()
                    .orElse("(no Rows: line; see " + log + ")");
            System.out.printf(Locale.ROOT, "  plan (exit %d)     %,10.0f rows/s  (%.2f s with JVM and sandbox start),"
                            + " peak resident %d MB; %s   load %s%n", p.exitValue(), Benchmark.INTAKE_ROWS / seconds,
                    seconds, peakKb / 1024, rows.replaceAll("\\s+", " "), Machine.load());
        } finally {
            Benchmark.deleteTree(home);
        }
    }
}
