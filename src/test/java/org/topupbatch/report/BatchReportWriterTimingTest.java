package org.topupbatch.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Balance;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.testing.MutableClock;

/**
 * The report tells when it was written, after the balance read: that read may wait most of a
 * minute for the rate budget, and a batch's duration is measured to the report, not to the
 * moment the writer started (the summary's finished_at).
 */
class BatchReportWriterTimingTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void the_report_is_told_written_after_a_balance_read_that_waited_57_s() throws Exception {
        MutableClock clock = new MutableClock(T0);
        try (JdbcJournal journal = JdbcJournal.open(dir, "", null, null, clock)) {
            long id;
            try (BatchWriter writer = journal.intake().openBatch("b.csv", ',', List.of(), "archive/b.csv")) {
                writer.add(new NewRow(0, 2L, "R-1", "ML86", "12345678", "1234", null, List.of(),
                        RowState.ACCEPTED, 20_000L, null));
                id = writer.commit();
            }
            ProviderGateway waitingForTheBudget = new ProviderGateway(null, null) {
                @Override
                public Balance checkBalance() {
                    clock.advance(Duration.ofSeconds(57)); // the rate budget was full
                    return new Balance(9_980_000L, "IDR", "gold", "test");
                }
            };
            List<Instant> told = new ArrayList<>();
            Path reports = Files.createDirectories(dir.resolve("reports"));
            new BatchReportWriter(journal.reporting(), org.topupbatch.provider.Accounts.lone(waitingForTheBudget), new ReportWriter(reports), clock,
                    (batch, complete, at, summary) -> {
                        assertThat(reports.resolve("b.summary.json")).as("told once the files are in place").exists();
                        told.add(at);
                    })
                    .write(journal.reporting().batch(id).orElseThrow(), true);
            assertThat(told).containsExactly(T0.plusSeconds(57));
        }
    }
}
