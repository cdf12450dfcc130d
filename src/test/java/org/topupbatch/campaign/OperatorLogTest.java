package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.LedgerEntry;

/** The campaign's check of the operator's moves against the ledger finds what it must, and only that. */
class OperatorLogTest {

    static final Instant T0 = Instant.parse("2026-11-25T03:00:00Z");
    final CampaignBatch held = new CampaignBatch("h.csv", "", Map.of("H-1", true, "H-2", true, "H-3", true), 3);

    static LedgerEntry order(String ref, long secondsAfterT0) {
        return new LedgerEntry(ref, "ML86", "1", "2", "success", "SN", 1, 10, 9, T0.plusSeconds(secondsAfterT0), null, false);
    }

    @Test
    void an_order_created_while_its_batch_was_held_or_after_its_cancel_is_an_anomaly() {
        CampaignBatch cancelled = new CampaignBatch("x.csv", "", Map.of("X-1", true, "X-2", true), 2);
        OperatorLog log = new OperatorLog();
        log.held("h.csv", T0);
        log.resuming("h.csv", T0.plusSeconds(60));
        log.cancelled("x.csv", T0);

        List<String> anomalies = log.ordersWhileStopped(List.of(order("H-1", 1), order("H-2", 30), order("H-3", 61),
                order("X-1", 1), order("X-2", 300)), List.of(held, cancelled));

        assertThat(anomalies).hasSize(2);
        assertThat(anomalies.get(0)).startsWith("order H-2 of h.csv was created at 2026-11-25T03:00:30Z, after the operator's hold");
        assertThat(anomalies.get(1)).startsWith("order X-2 of x.csv was created at 2026-11-25T03:05:00Z, after the operator's cancel");
    }

    @Test
    void a_hold_never_resumed_stops_the_batch_to_the_end() {
        OperatorLog log = new OperatorLog();
        log.held("h.csv", T0);

        assertThat(log.ordersWhileStopped(List.of(order("H-1", 3600)), List.of(held))).hasSize(1);
    }
}
