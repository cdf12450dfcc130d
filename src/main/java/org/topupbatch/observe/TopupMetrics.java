package org.topupbatch.observe;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.topupbatch.cluster.NodeRole;
import org.topupbatch.journal.BatchOverview;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.RateBudget;

/**
 * The run's gauges and the batch duration timer, all named {@code topup_...} in Prometheus text.
 * Provider calls are metered by {@link MeteredGate}.
 */
public final class TopupMetrics {

    private final Timer batchDuration;
    private final Instant since;
    private final Set<Long> timedBatches = new HashSet<>();

    /** Meters for the batches reported complete after {@code since} (this run's start). */
    public TopupMetrics(MeterRegistry registry, Instant since) {
        this.since = since;
        this.batchDuration = Timer.builder("topup.batch.duration")
                .description("From a batch's intake to its complete report").register(registry);
    }

    /** The gauges read the journal through {@code readings} and the rate window from {@code budget}. */
    public void gauges(MeterRegistry registry, RunReadings readings, RateBudget budget) {
        for (RowState state : RowState.values()) {
            Gauge.builder("topup.orders", readings, r -> r.current().rowsByState().getOrDefault(state, 0L))
                    .description("Rows of every batch by state").tag("status", state.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        Gauge.builder("topup.orders.pending", readings, r -> r.current().pendingOrders())
                .description("Orders sent whose final status is still to learn").register(registry);
        Gauge.builder("topup.balance.rupiah", readings, r -> r.current().balance().map(Long::doubleValue).orElse(Double.NaN))
                .description("The last balance the journal holds").register(registry);
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

    /** Times each batch once, when a reading first shows it reported complete. */
    public synchronized void batchesRead(RunReadings.Reading reading) {
        for (BatchOverview o : reading.batches()) {
            BatchRecord b = o.batch();
            if (b.reportComplete() && b.reportedAt() != null && !b.reportedAt().isBefore(since) && timedBatches.add(b.id())) {
                batchDuration.record(Duration.between(b.startedAt(), b.reportedAt()));
            }
        }
    }
}
