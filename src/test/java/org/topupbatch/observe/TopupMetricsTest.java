package org.topupbatch.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.BatchRecord;

/** The batch duration: from intake to the report's writing, on the scrape right after it, once per batch. */
class TopupMetricsTest {

    static final Instant INTAKE = Instant.parse("2026-03-01T10:00:00Z");

    static BatchRecord batch(long id) {
        return new BatchRecord(id, "b" + id + ".csv", ',', List.of(), null, null, null, 10_000_000L, INTAKE,
                INTAKE.plusSeconds(1), INTAKE.plusSeconds(5), true);
    }

    @Test
    void a_complete_report_is_timed_to_its_writing_at_once_and_only_once() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        TopupMetrics metrics = new TopupMetrics(registry);
        metrics.reportWritten(batch(1), false, INTAKE.plusSeconds(30)); // at the pending timeout: not complete
        assertThat(registry.scrape()).contains("topup_batch_duration_seconds_count 0");

        metrics.reportWritten(batch(1), true, INTAKE.plusSeconds(62));
        metrics.reportWritten(batch(1), true, INTAKE.plusSeconds(90)); // the same batch again: counted once
        String scrape = registry.scrape();
        assertThat(scrape).contains("topup_batch_duration_seconds_count 1", "topup_batch_duration_seconds_sum 62.0");
    }
}
