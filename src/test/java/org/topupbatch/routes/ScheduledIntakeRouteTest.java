package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** intake.yaml with topup.schedule: the inbox is taken on the cron schedule, not as soon as a file lands. */
class ScheduledIntakeRouteTest extends RouteTestSupport {

    @Override
    List<String> routes() {
        return List.of("intake");
    }

    @Override
    void environment(Map<String, String> env) {
        // Quartz form with seconds: at second 0, 15, 30 and 45 of every minute.
        env.put("TOPUP_SCHEDULE", "0/15 * * * * ?");
    }

    @Test
    void the_inbox_is_taken_at_the_scheduled_times_only() throws Exception {
        assertThat(settings.schedule()).isEqualTo("0/15 * * * * ?");
        Poll.until("a moment just after a trigger", Duration.ofSeconds(20), () -> LocalTime.now().getSecond() % 15 == 2);
        Path file = drop("nightly.csv", IntakeRouteTest.BATCH);

        Thread.sleep(7000); // continuous polling would have taken it by now
        assertThat(file).as("not taken between triggers").exists();

        Poll.until("nightly.csv is taken at the next trigger", Duration.ofSeconds(20), () -> !Files.exists(file));
        int second = LocalTime.now().getSecond();
        assertThat(second % 15).as("taken at second " + second).isLessThan(6);
        assertThat(rows("nightly.csv")).hasSize(3);
    }
}
