package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.testing.Poll;

/** run-once.yaml: an order still pending at topup.pending-timeout ends the run with 3, after its report. */
class RunOnceTimeoutRouteTest extends RouteTestSupport {

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "submit-order", "mark-sending", "track", "report", "report-backstop", "run-once");
    }

    @Override
    SandboxConfig sandboxConfig() {
        return SandboxConfig.defaults().setSettleDelay(DurationRange.of(Duration.ofMinutes(10), Duration.ofMinutes(10)));
    }

    @Override
    void environment(Map<String, String> env) {
        env.put("TOPUP_MODE", "once");
        env.put("TOPUP_PENDING_TIMEOUT", "1s");
    }

    @Override
    void beforeBoot() throws Exception {
        drop("slow.csv", "ref_id,product_sku,customer_no,customer_no_zone\nRT-0001,GI60,812345678,asia\n");
    }

    @Test
    void the_run_ends_with_3_when_an_order_is_still_pending_at_the_timeout() throws Exception {
        Poll.until("the run-once route ends the run", Duration.ofSeconds(30), () -> !exitCodes.isEmpty());

        assertThat(exitCodes).containsExactly(3);
        assertThat(rows("slow.csv")).extracting(RowRecord::state).containsExactly(RowState.PENDING);
        JsonNode summary = new ObjectMapper().readTree(settings.folders().reports().resolve("slow.summary.json").toFile());
        assertThat(summary.path("pending").asInt()).isEqualTo(1);
    }
}
