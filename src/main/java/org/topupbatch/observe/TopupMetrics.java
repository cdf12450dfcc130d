package org.topupbatch.observe;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.topupbatch.cluster.NodeRole;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.RateBudget;

/**
 * The run's gauges and the batch duration timer, all named {@code topup_...} in Prometheus text.
 * Provider calls are metered by {@link MeteredGate}.
 */
public final class TopupMetrics {

    private final Timer batchDuration;
    private final Set<Long> timedBatches = new HashSet<>();

    public TopupMetrics(MeterRegistry registry) {
        this.batchDuration = Timer.builder("topup.batch.duration")
                .description("From a batch's intake to the writing of its complete report").register(registry);
    }

    /** The notice events of the contract, each counted as delivered and as given up. */
    static final List<String> NOTICE_EVENTS = List.of("batch_reported", "batch_stopped", "balance_low", "orders_pending",
            "reconcile_exceptions", "inbox_unreadable", "leader_changed");

    /** Notifications delivered and given up after their retries, by event (docs/operating.md#notifications). */
    public void notifications(MeterRegistry registry, org.topupbatch.notify.Notifications notifications) {
        for (String event : NOTICE_EVENTS) {
            io.micrometer.core.instrument.FunctionCounter.builder("topup.notifications", notifications,
                            n -> n.deliveredByEvent().getOrDefault(event, new java.util.concurrent.atomic.AtomicLong()).get())
                    .description("Notices delivered to an endpoint of topup.notify.uris, or given up after the retries")
                    .tags("event", event, "outcome", "delivered").register(registry);
            io.micrometer.core.instrument.FunctionCounter.builder("topup.notifications", notifications,
                            n -> n.givenUpByEvent().getOrDefault(event, new java.util.concurrent.atomic.AtomicLong()).get())
                    .description("Notices delivered to an endpoint of topup.notify.uris, or given up after the retries")
                    .tags("event", event, "outcome", "given_up").register(registry);
        }
    }

    /** The gauges read the journal through {@code readings} and the rate window from {@code budget}. */
    public void gauges(MeterRegistry registry, RunReadings readings, RateBudget budget, Clock clock) {
        for (RowState state : RowState.values()) {
            if (state == RowState.REJECTED) {
                continue; // a rejected row never became an order: it is counted as a row, below
            }
            Gauge.builder("topup.orders", readings, r -> r.current().rowsByState().getOrDefault(state, 0L))
                    .description("Orders of every batch by state (rejected rows are not orders)")
                    .tag("status", state.name().toLowerCase(Locale.ROOT)).register(registry);
        }
        Gauge.builder("topup.rows.rejected", readings, r -> r.current().rowsByState().getOrDefault(RowState.REJECTED, 0L))
                .description("Rows of every batch rejected before any order was sent").register(registry);
        Gauge.builder("topup.rows.held", readings, r -> r.current().heldRows())
                .description("Rows queued but not sent: their product is unavailable, or an operator holds their batch")
                .tag("reason", "product_unavailable").register(registry);
        Gauge.builder("topup.rows.held", readings, r -> r.current().rowsInHeldBatches())
                .description("Rows queued but not sent: their product is unavailable, or an operator holds their batch")
                .tag("reason", "batch_held").register(registry);
        Gauge.builder("topup.products.held", readings, r -> r.current().held().size())
                .description("Products the provider reports unavailable whose rows are held").register(registry);
        Gauge.builder("topup.batches.held", readings, r -> r.current().batchesHeld())
                .description("Batches an operator holds (hold BATCH): their queued rows wait for resume").register(registry);
        Gauge.builder("topup.batches.cancelled", readings, r -> r.current().batchesCancelled())
                .description("Batches an operator cancelled (cancel BATCH), in the whole journal").register(registry);
        for (String kind : List.of("unknown_to_journal", "missing_at_provider", "status_differs", "price_differs",
                "pending_too_long")) {
            Gauge.builder("topup.reconcile.exceptions", readings, r -> r.current().reconciliation()
                            .map(x -> (double) x.exceptions().getOrDefault(kind, 0L)).orElse(Double.NaN))
                    .description("Exceptions of the last reconciliation with the provider, by kind (reconcile DAY)")
                    .tag("kind", kind).register(registry);
        }
        Gauge.builder("topup.reconcile.unexplained.rupiah", readings, r -> r.current().reconciliation()
                        .map(x -> x.unexplained() == null ? Double.NaN : (double) x.unexplained()).orElse(Double.NaN))
                .description("Balance movement the last reconciliation's orders do not explain (deposits, fees, corrections)")
                .register(registry);
        Gauge.builder("topup.orders.pending", readings, r -> r.current().pendingOrders())
                .description("Orders sent whose final status is still to learn").register(registry);
        Gauge.builder("topup.balance.rupiah", readings, r -> r.balance().map(b -> (double) b.balance()).orElse(Double.NaN))
                .description("The balance as of the latest provider answer that carried one").register(registry);
        Gauge.builder("topup.balance.age.seconds", readings,
                        r -> r.balance().map(b -> Duration.between(b.at(), clock.instant()).toMillis() / 1000.0).orElse(Double.NaN))
                .description("Seconds since the answer that carried topup_balance_rupiah").register(registry);
        Gauge.builder("topup.rate.window.used", budget, RateBudget::inWindow)
                .description("Provider requests counted in the rolling minute").register(registry);
        Gauge.builder("topup.rate.window.limit", budget, b -> b.limits().perMinute())
                .description("Provider requests allowed per rolling minute").register(registry);
        Gauge.builder("topup.rate.day.used", budget, b -> b.limits().usedToday())
                .description("Provider requests today (the provider's UTC day)").register(registry);
        Gauge.builder("topup.rate.day.limit", budget, b -> b.limits().perDay())
                .description("Provider requests allowed per day").register(registry);
    }

    /**
     * Several accounts: each account's balance as of its latest answer that carried one (NaN before)
     * and its own rate window, labelled with its name.
     */
    public void accounts(MeterRegistry registry, List<ObservedAccount> accounts) {
        for (ObservedAccount account : accounts) {
            Gauge.builder("topup.account.balance.rupiah", account.balances(),
                            b -> b.last().map(r -> (double) r.balance()).orElse(Double.NaN))
                    .description("An account's balance as of its latest answer that carried one")
                    .tag("account", account.name()).register(registry);
            Gauge.builder("topup.account.rate.window.used", account.budget(), RateBudget::inWindow)
                    .description("Requests of an account in the current 60-second window")
                    .tag("account", account.name()).register(registry);
            Gauge.builder("topup.account.rate.window.limit", account.budget(), b -> b.limits().perMinute())
                    .description("An account's requests per minute").tag("account", account.name()).register(registry);
        }
    }

    /**
     * Whether the local inbox folder can be listed (1) or not (0): a folder gone or unreadable
     * takes no file, and nothing else says so. With an SFTP inbox this is the local folder the
     * relay delivers into. One file-system look per scrape.
     */
    public void inbox(MeterRegistry registry, Path inbox) {
        Gauge.builder("topup.inbox.readable", inbox,
                        p -> Files.isDirectory(p) && Files.isReadable(p) && Files.isExecutable(p) ? 1 : 0)
                .description("1 when the inbox folder can be listed, else 0").register(registry);
    }

    /**
     * This node's role, labelled with its name so that the nodes of one journal can be told apart:
     * {@code topup_node_leader} is 1 on the node doing the active work (a leader, or a single node),
     * and {@code topup_node_role} is 1 for the role it has now.
     */
    public void node(MeterRegistry registry, NodeRole node) {
        Gauge.builder("topup.node.leader", node, n -> n.isActive() ? 1 : 0)
                .description("1 on the node that takes files, submits, tracks and reports; 0 on a standby")
                .tag("node", node.name()).register(registry);
        boolean single = node.role() == NodeRole.Role.SINGLE; // a single node keeps its role for life
        for (NodeRole.Role role : NodeRole.Role.values()) {
            if (single == (role == NodeRole.Role.SINGLE)) {
                Gauge.builder("topup.node.role", node, n -> n.role() == role ? 1 : 0)
                        .description("1 for this node's present role").tag("node", node.name()).tag("role", role.shown())
                        .register(registry);
            }
        }
    }

    /**
     * Times a batch from its intake to the moment its complete report was written (the report
     * route calls this as the files are in place), once per batch in this process: the first
     * scrape after the report has it.
     */
    public synchronized void reportWritten(BatchRecord batch, boolean complete, Instant at) {
        if (complete && timedBatches.add(batch.id())) {
            batchDuration.record(Duration.between(batch.startedAt(), at));
        }
    }
}
