package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.camel.builder.NotifyBuilder;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.testing.Poll;

/**
 * run-once.yaml: in once mode the run ends through the exit consumer with 0 once the batches
 * present at start are processed, every order is final and every report is written.
 * All routes run, as in a real start.
 */
class RunOnceRouteTest extends RouteTestSupport {

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "submit-order", "mark-sending", "track", "report", "report-backstop", "run-once");
    }

    @Override
    SandboxConfig sandboxConfig() {
        return SandboxConfig.defaults().setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(300)));
    }

    @Override
    void environment(Map<String, String> env) {
        env.put("TOPUP_MODE", "once");
    }

    @Override
    void beforeBoot() throws Exception {
        // once mode takes the batches present at start: this one, with an order that settles later
        drop("once.csv", """
                ref_id,product_sku,customer_no,customer_no_zone
                RO-0001,ML86,123456789,2345
                RO-0002,GI60,812345678,asia
                """);
    }

    @Test
    void the_run_ends_with_0_when_everything_is_final_and_reported() throws Exception {
        exitCodes.clear();
        assertThat(context.getRoute("run-once")).isNotNull();

        Poll.until("the run-once route ends the run", Duration.ofSeconds(30), () -> !exitCodes.isEmpty());
        List<RowRecord> rows = rows("once.csv");
        assertThat(exitCodes).containsExactly(0);
        assertThat(rows).extracting(RowRecord::state).containsExactly(RowState.SUCCESS, RowState.SUCCESS);
        assertThat(settings.folders().reports().resolve("once.summary.json")).exists();
        assertThat(settings.folders().inbox().resolve("once.csv")).doesNotExist();

        // the route keeps ticking; the run is not ended twice
        NotifyBuilder ticks = new NotifyBuilder(context).fromRoute("run-once").whenDone(2).create();
        assertThat(ticks.matches(10, TimeUnit.SECONDS)).as("two more run-once ticks").isTrue();
        assertThat(exitCodes).containsExactly(0);
    }
}
