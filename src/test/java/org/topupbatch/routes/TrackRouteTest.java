package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.testing.Poll;

/**
 * track.yaml. track: with webhooks off, a pending order reaches its final status by polling alone.
 * account-limits: its timer fires every 10 minutes, so here it is fired through a direct: endpoint
 * put in place of the timer (the route's steps are the real ones).
 */
class TrackRouteTest extends RouteTestSupport {

    @Override
    protected void doPreSetup() throws Exception {
        replaceRouteFromWith("account-limits", "direct:account-limits");
    }

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "submit-order", "mark-sending", "track");
    }

    @Override
    SandboxConfig sandboxConfig() {
        // GI60 settles asynchronously; no webhook-url: the sandbox sends no webhooks
        return SandboxConfig.defaults().setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(300)));
    }

    @Test
    void a_pending_order_is_settled_by_polling_the_provider() throws Exception {
        assertThat(context.getRoute("track-webhook")).as("webhook receiver off at port 0").isNull();
        drop("track.csv", "ref_id,product_sku,customer_no,customer_no_zone\nTR-0001,GI60,812345678,asia\n");

        Poll.until("TR-0001 is pending", WAIT, () -> rows("track.csv"),
                r -> r.size() == 1 && r.get(0).state() == RowState.PENDING);
        Poll.until("the sandbox settles TR-0001", WAIT, () -> sandbox.ledger(),
                l -> l.size() == 1 && l.get(0).status().equals("success"));
        long lookUpsBefore = lookUps();

        // the first status check of a pending order is due 5 s after it was sent
        RowRecord row = Poll.until("TR-0001 is final in the journal", WAIT, () -> row("track.csv", "TR-0001"),
                r -> r.state().isFinal());

        LedgerEntry order = sandbox.ledger().get(0);
        assertThat(row.state()).isEqualTo(RowState.SUCCESS);
        assertThat(row.serialNumber()).isEqualTo(order.serialNumber()).isNotBlank();
        assertThat(row.price()).isEqualTo(order.price());
        assertThat(lookUps()).as("check-order / order-history requests").isGreaterThan(lookUpsBefore);
        assertThat(sandbox.stats().requestsPerOperation().getOrDefault("create-order", 0L)).isEqualTo(1);
    }

    @Test
    void account_limits_reads_the_account_profile_again() throws Exception {
        long before = sandbox.stats().requestsPerOperation().getOrDefault("profile", 0L);
        assertThat(before).as("read once by the start-up checks").isEqualTo(1);
        context.getRouteController().startRoute("account-limits");

        template.sendBody("direct:account-limits", null);

        assertThat(sandbox.stats().requestsPerOperation().getOrDefault("profile", 0L)).isEqualTo(before + 1);
    }

    private long lookUps() {
        var perOperation = sandbox.stats().requestsPerOperation();
        return perOperation.getOrDefault("check-order", 0L) + perOperation.getOrDefault("order-history", 0L);
    }
}
