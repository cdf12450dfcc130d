package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;
import org.topupbatch.run.StartupChecks;

/**
 * A start with orders an earlier run left pending: their webhooks may have come while no run
 * listened, so the start makes them due within seconds instead of at their backed-off schedule.
 */
class StartupPendingRouteTest extends RouteTestSupport {

    @Override
    List<String> routes() {
        return List.of();
    }

    @Test
    void pending_orders_of_an_earlier_run_are_looked_up_soon_after_a_start() {
        long rowId;
        try (BatchWriter writer = journal().intake().openBatch("earlier.csv", ',', List.of(), "archive/earlier.csv")) {
            writer.add(new NewRow(0, 2, "EARLIER-1", "ML86", "123456789", "2345", null, List.of(),
                    RowState.ACCEPTED, 18525L, null));
            writer.commit();
        }
        rowId = row("earlier.csv", "EARLIER-1").id();
        Instant start = clock().instant();
        journal().submission().markSending(rowId, start);
        journal().submission().recordOutcome(rowId, RowState.PENDING, null, null, "processing");
        journal().submission().scheduleCheck(rowId, start.plusSeconds(300), 3); // backed off, waiting for a webhook

        // what the next start runs before its routes
        assertThat(context.getRegistry().lookupByNameAndType("startupChecks", StartupChecks.class).problem()).isNull();

        assertThat(row("earlier.csv", "EARLIER-1").nextCheckAt()).isBefore(start.plusSeconds(10));
        assertThat(row("earlier.csv", "EARLIER-1").checks()).isEqualTo(3);
    }
}
