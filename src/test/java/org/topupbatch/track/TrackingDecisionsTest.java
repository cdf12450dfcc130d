package org.topupbatch.track;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.OrderRequest;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.MutableClock;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.SandboxClient;

/**
 * The track decisions: which orders are due and how they are grouped, what reconciling an unknown
 * order and polling a pending one write to the journal. Real H2 journal, the sandbox over HTTP
 * (orders stay pending there for 10 minutes), and a hand-moved clock for the journal's schedule.
 */
class TrackingDecisionsTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @RegisterExtension
    final SandboxClient provider = SandboxClient.on(() -> SandboxConfig.defaults()
            .setSettleDelay(DurationRange.of(Duration.ofMinutes(10), Duration.ofMinutes(10))));

    @TempDir
    Path dir;

    final MutableClock clock = new MutableClock(T0);
    final SandboxProvider sandbox = provider.sandbox();
    CamelContext camel;
    final ProviderGateway gateway = provider.gateway();
    JdbcJournal journal;
    RowsInJournal inJournal;

    @BeforeEach
    void start() {
        camel = new DefaultCamelContext();
        camel.start();
        journal = JdbcJournal.open(dir, "", null, null, clock);
        inJournal = new RowsInJournal(journal, clock);
    }

    @AfterEach
    void stop() {
        journal.close();
        camel.stop();
    }

    static NewRow order(int seq, String refId, String sku, String customer) {
        return new NewRow(seq, seq + 2L, refId, sku, customer, "2345", null, List.of(), RowState.ACCEPTED, 20_000L, null);
    }

    /** A product the sandbox leaves pending (settle delay 10 minutes). */
    static NewRow slowOrder(int seq, String refId) {
        return new NewRow(seq, seq + 2L, refId, "GI60", "812345678", "asia", null, List.of(), RowState.ACCEPTED, 20_000L, null);
    }

    static OrderRequest slowRequest(String refId) {
        return new OrderRequest(refId, "GI60", "812345678", "asia");
    }

    long ordersAtProvider(String refId) {
        return sandbox.ledger().stream().map(LedgerEntry::refId).filter(refId::equals).count();
    }

    UnknownOrderReconciliation reconciliation() {
        TrackedOrders tracked = new TrackedOrders(journal.tracking(), clock, false);
        return new UnknownOrderReconciliation(gateway, new OrderHistorySearch(gateway, tracked, clock), tracked,
                journal.reporting()::batch, clock);
    }

    @Test
    void due_orders_come_as_unknown_ones_and_pending_ones_grouped_by_product() {
        inJournal.batch(order(0, "D-1", "ML86", "123456789"), order(1, "D-2", "ML86", "123456780"),
                order(2, "D-3", "GI60", "812345678"), order(3, "D-4", "ML86", "123456781"));
        inJournal.sentWith("D-1", RowState.PENDING);
        inJournal.sentWith("D-2", RowState.UNKNOWN);
        inJournal.sentWith("D-3", RowState.PENDING);
        inJournal.sentWith("D-4", RowState.PENDING);

        DueOrders.Round round = new DueOrders(journal.tracking(), clock, false).take(300);

        assertThat(round.unknown()).extracting(RowRecord::refId).containsExactly("D-2");
        assertThat(round.pendingByProduct()).extracting(g -> g.stream().map(RowRecord::refId).toList())
                .containsExactlyInAnyOrder(List.of("D-1", "D-4"), List.of("D-3"));
    }

    @Test
    void a_hint_that_comes_while_the_create_order_is_on_its_way_is_not_put_off_by_its_pending_answer() {
        inJournal.batch(slowOrder(0, "H-1"), slowOrder(1, "H-2"));
        for (String refId : List.of("H-1", "H-2")) {
            journal.submission().markSending(inJournal.row(refId).id(), clock.instant());
        }
        // signed webhooks settle orders here; an unsigned one about H-1 comes before its create-order's answer
        WebhookReceiver receiver = new WebhookReceiver(journal.tracking(), new WebhookAuthenticator("whsec-test"), clock);
        assertThat(receiver.handle("{\"event\":\"order.updated\",\"data\":{\"ref_id\":\"H-1\",\"status\":\"success\"}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8))).isEqualTo("ok");
        clock.advance(Duration.ofMillis(300));
        for (String refId : List.of("H-1", "H-2")) {
            RowRecord row = inJournal.row(refId);
            OrderOutcomes.recordAnswer(journal.submission(), clock, row, new org.topupbatch.provider.Order(refId, "GI60",
                    "812345678", org.topupbatch.provider.OrderStatus.PENDING, null, 20_000L, null, null, "pending"));
        }

        DueOrders.Round round = new DueOrders(journal.tracking(), clock, true).take(300);

        assertThat(round.pendingByProduct()).as("H-1 hinted, looked up at once; H-2 waits for its signed webhook")
                .extracting(g -> g.stream().map(RowRecord::refId).toList()).containsExactly(List.of("H-1"));
        assertThat(inJournal.row("H-2").checks()).isZero();
    }

    @Test
    void a_products_orders_due_in_the_next_seconds_join_the_look_up_one_of_them_makes_now() {
        inJournal.batch(order(0, "G-1", "ML86", "123456789"), order(1, "G-2", "ML86", "123456780"),
                order(2, "G-3", "ML86", "123456781"), order(3, "G-4", "ML86", "123456782"),
                order(4, "G-5", "GI60", "812345678"));
        for (String refId : List.of("G-1", "G-2", "G-3", "G-4", "G-5")) {
            inJournal.sentWith(refId, RowState.PENDING);
        }
        journal.tracking().scheduleCheck(inJournal.row("G-1").id(), T0, 1);
        journal.tracking().scheduleCheck(inJournal.row("G-2").id(), T0.plusSeconds(2), 1);
        journal.tracking().scheduleCheck(inJournal.row("G-3").id(), T0.plus(DueOrders.GATHER), 1);
        journal.tracking().scheduleCheck(inJournal.row("G-4").id(), T0.plus(DueOrders.GATHER).plusSeconds(1), 1);
        journal.tracking().scheduleCheck(inJournal.row("G-5").id(), T0.plusSeconds(1), 1); // its product has none due now

        DueOrders.Round round = new DueOrders(journal.tracking(), clock, false).take(300);

        // three of one product: one history page instead of three check-orders
        assertThat(round.pendingByProduct()).extracting(g -> g.stream().map(RowRecord::refId).toList())
                .containsExactly(List.of("G-1", "G-2", "G-3"));
        assertThat(round.pendingByProduct().get(0)).hasSizeGreaterThanOrEqualTo(PendingOrderPolling.HISTORY_GROUP_MIN);
    }

    @Test
    void a_fresh_pending_order_waits_for_its_signed_webhook_before_it_is_looked_up() {
        inJournal.batch(order(0, "W-1", "ML86", "123456789"));
        inJournal.sentWith("W-1", RowState.PENDING);
        DueOrders due = new DueOrders(journal.tracking(), clock, true);

        assertThat(due.take(300).isEmpty()).isTrue();
        assertThat(inJournal.row("W-1").nextCheckAt()).isEqualTo(T0.plus(CheckSchedule.WEBHOOK_WAIT));

        clock.advance(CheckSchedule.WEBHOOK_WAIT);
        assertThat(due.take(300).pendingByProduct()).extracting(g -> g.get(0).refId()).containsExactly("W-1");
    }

    @Test
    void an_unknown_order_that_never_reached_the_provider_is_sent_again_under_the_same_ref_id() {
        inJournal.batch(slowOrder(0, "U-1"));
        inJournal.sentWith("U-1", RowState.UNKNOWN);

        reconciliation().reconcile(inJournal.row("U-1"));

        assertThat(ordersAtProvider("U-1")).isEqualTo(1);
        RowRecord after = inJournal.row("U-1");
        assertThat(after.state()).isEqualTo(RowState.PENDING);
        assertThat(after.nextCheckAt()).isAfter(T0);
    }

    @Test
    void an_unknown_order_of_a_held_batch_is_not_sent_again_until_it_is_resumed() {
        inJournal.batch(slowOrder(0, "U-H"));
        inJournal.sentWith("U-H", RowState.UNKNOWN);
        long batchId = inJournal.row("U-H").batchId();
        journal.control().holdBatch(batchId, clock.instant());

        reconciliation().reconcile(inJournal.row("U-H"));

        assertThat(ordersAtProvider("U-H")).isZero();
        assertThat(inJournal.row("U-H").state()).isEqualTo(RowState.UNKNOWN);
        assertThat(inJournal.row("U-H").nextCheckAt()).isAfter(T0);

        journal.control().resumeBatch(batchId);
        assertThat(inJournal.row("U-H").nextCheckAt()).as("due at once after resume").isEqualTo(T0);
        reconciliation().reconcile(inJournal.row("U-H"));
        assertThat(ordersAtProvider("U-H")).isEqualTo(1);
        assertThat(inJournal.row("U-H").state()).isEqualTo(RowState.PENDING);
    }

    @Test
    void an_unknown_order_of_a_held_batch_that_the_provider_never_took_is_queued_again_for_after_resume() {
        inJournal.batch(slowOrder(0, "U-Q"));
        inJournal.sentWith("U-Q", RowState.UNKNOWN);
        long batchId = inJournal.row("U-Q").batchId();
        journal.control().holdBatch(batchId, clock.instant());

        clock.advance(UnknownOrderReconciliation.SETTLED_AFTER);
        reconciliation().reconcile(inJournal.row("U-Q"));

        // a queued row of the held batch now: its report and a once run need not wait for it
        assertThat(ordersAtProvider("U-Q")).isZero();
        assertThat(inJournal.row("U-Q").state()).isEqualTo(RowState.ACCEPTED);
        assertThat(inJournal.row("U-Q").sentAt()).isNull();
        assertThat(journal.submission().nextToSubmit(10)).as("held: not sent").isEmpty();
        journal.control().resumeBatch(batchId);
        assertThat(journal.submission().nextToSubmit(10)).extracting(RowRecord::refId).containsExactly("U-Q");
    }

    @Test
    void an_unknown_order_of_a_cancelled_batch_that_the_provider_never_took_is_rejected_not_sent_again() {
        inJournal.batch(slowOrder(0, "U-C"));
        inJournal.sentWith("U-C", RowState.UNKNOWN);
        journal.control().cancelBatch(inJournal.row("U-C").batchId(), clock.instant(), "cancelled by the operator");

        // just sent: a slow provider may not know it yet, so it is only looked at again
        reconciliation().reconcile(inJournal.row("U-C"));
        assertThat(inJournal.row("U-C").state()).isEqualTo(RowState.UNKNOWN);
        assertThat(inJournal.row("U-C").nextCheckAt()).isEqualTo(T0.plus(UnknownOrderReconciliation.SETTLED_AFTER));

        clock.advance(UnknownOrderReconciliation.SETTLED_AFTER);
        reconciliation().reconcile(inJournal.row("U-C"));

        assertThat(ordersAtProvider("U-C")).isZero();
        RowRecord after = inJournal.row("U-C");
        assertThat(after.state()).isEqualTo(RowState.REJECTED);
        assertThat(after.message()).startsWith("cancelled by the operator at 2026-03-01 10:00 UTC; not sent")
                .endsWith("(the provider has no order under this ref_id)");
        assertThat(after.refId()).isEqualTo("U-C");
    }

    @Test
    void an_unknown_order_of_a_cancelled_batch_that_the_provider_took_is_tracked_as_usual() {
        inJournal.batch(slowOrder(0, "U-T"));
        inJournal.sentWith("U-T", RowState.UNKNOWN);
        gateway.createOrder(slowRequest("U-T"));
        journal.control().cancelBatch(inJournal.row("U-T").batchId(), clock.instant(), "cancelled by the operator");
        clock.advance(UnknownOrderReconciliation.SETTLED_AFTER);

        reconciliation().reconcile(inJournal.row("U-T"));

        assertThat(ordersAtProvider("U-T")).isEqualTo(1);
        assertThat(inJournal.row("U-T").state()).isEqualTo(RowState.PENDING);
    }

    @Test
    void an_unknown_order_the_provider_already_holds_is_adopted_not_sent_twice() {
        inJournal.batch(slowOrder(0, "U-2"));
        inJournal.sentWith("U-2", RowState.UNKNOWN);
        gateway.createOrder(slowRequest("U-2"));

        reconciliation().reconcile(inJournal.row("U-2"));

        assertThat(ordersAtProvider("U-2")).isEqualTo(1);
        assertThat(inJournal.row("U-2").state()).isEqualTo(RowState.PENDING);
    }

    @Test
    void an_unknown_order_whose_ref_id_holds_another_customers_order_is_refused_as_not_ours() {
        inJournal.batch(order(0, "U-3", "ML86", "123456789"));
        inJournal.sentWith("U-3", RowState.UNKNOWN);
        gateway.createOrder(new OrderRequest("U-3", "ML86", "999999999", "2345"));

        reconciliation().reconcile(inJournal.row("U-3"));

        RowRecord after = inJournal.row("U-3");
        assertThat(after.state()).isEqualTo(RowState.REFUSED);
        assertThat(after.message()).contains("another order under this ref_id");
        assertThat(ordersAtProvider("U-3")).isEqualTo(1);
    }

    @Test
    void a_pending_order_still_pending_at_the_provider_is_looked_at_again_backing_off() {
        inJournal.batch(slowOrder(0, "P-1"));
        gateway.createOrder(slowRequest("P-1"));
        inJournal.sentWith("P-1", RowState.PENDING);
        TrackedOrders tracked = new TrackedOrders(journal.tracking(), clock, false);

        new PendingOrderPolling(gateway, new OrderHistorySearch(gateway, tracked, clock), tracked).poll(List.of(inJournal.row("P-1")));

        RowRecord after = inJournal.row("P-1");
        assertThat(after.state()).isEqualTo(RowState.PENDING);
        assertThat(after.checks()).isEqualTo(1);
        assertThat(after.nextCheckAt()).isEqualTo(CheckSchedule.next(T0, 1, false));
    }

    static final Duration PENDING_FOR_LONG = Duration.ofMinutes(10);

    /**
     * At the sandbox, in this order: {@code olderFinal} orders final, {@code olderPending} orders still
     * pending, a day's 250 more GI60 orders final (2.5 pages of 100), {@code recentFinal} orders final
     * too, then {@code recentPending} orders still pending. Each named one is also a row of ours,
     * pending, sent at T0; the sandbox keeps T0 as its clock, so history's dates match. History lists
     * the newest first.
     */
    List<RowRecord> pendingRows(List<String> olderFinal, List<String> olderPending, List<String> recentFinal,
                                List<String> recentPending) {
        sandbox.setClock(clock);
        settling(Duration.ZERO, olderFinal);
        settling(PENDING_FOR_LONG, olderPending);
        List<String> others = java.util.stream.IntStream.range(0, 250).mapToObj(i -> "OTHER-" + i).toList();
        settling(Duration.ZERO, others);
        settling(Duration.ZERO, recentFinal);
        Poll.until("the sandbox's final orders settled", Duration.ofSeconds(20), () -> sandbox.ledger().stream()
                .filter(e -> !olderPending.contains(e.refId())).allMatch(e -> e.settledAt() != null));
        settling(PENDING_FOR_LONG, recentPending);
        List<String> ours = new java.util.ArrayList<>(olderFinal);
        ours.addAll(olderPending);
        ours.addAll(recentFinal);
        ours.addAll(recentPending);
        for (int i = 0; i < ours.size(); i++) {
            inJournal.batch(slowOrder(i, ours.get(i)));
            inJournal.sentWith(ours.get(i), RowState.PENDING);
        }
        return ours.stream().map(inJournal::row).toList();
    }

    /** GI60 orders placed at the sandbox that settle after {@code delay}; ours for our rows' customer. */
    void settling(Duration delay, List<String> refIds) {
        sandbox.config().setSettleDelay(DurationRange.of(delay, delay));
        for (String refId : refIds) {
            String customer = refId.startsWith("OTHER-") ? Integer.toString(800_000_000 + sandbox.ledger().size()) : "812345678";
            sandbox.foreignOrder(refId, "GI60", customer, "asia");
        }
    }

    long historyPagesAsked() {
        return sandbox.stats().requestsPerOperation().getOrDefault("order-history", 0L);
    }

    /** Polls the rows as the track route does, and returns the history pages that took. */
    long pollCountingPages(List<RowRecord> sameProduct) {
        TrackedOrders tracked = new TrackedOrders(journal.tracking(), clock, false);
        long before = historyPagesAsked();
        new PendingOrderPolling(gateway, new OrderHistorySearch(gateway, tracked, clock), tracked).poll(sameProduct);
        return historyPagesAsked() - before;
    }

    void assertLookedAtAgain(String... refIds) {
        for (String refId : refIds) {
            assertThat(inJournal.row(refId).state()).as(refId).isEqualTo(RowState.PENDING);
            assertThat(inJournal.row(refId).checks()).as(refId + " looked at once, backing off").isEqualTo(1);
        }
    }

    // Asked by final status alone, an order still pending cost every page of the day's successes
    // (3 here) and one of failed: 4 pages in each of these cases.

    @Test
    void orders_sent_lately_pending_and_final_alike_are_answered_by_the_products_newest_page() {
        List<RowRecord> rows = pendingRows(List.of(), List.of(), List.of("N-1"), List.of("N-2", "N-3"));

        assertThat(pollCountingPages(rows)).as("history pages asked").isEqualTo(1);

        assertThat(inJournal.row("N-1").state()).isEqualTo(RowState.SUCCESS);
        assertThat(inJournal.row("N-1").serialNumber()).isNotBlank();
        assertLookedAtAgain("N-2", "N-3");
    }

    @Test
    void older_orders_still_pending_are_found_on_the_page_of_pending_orders_not_by_paging_through_the_final_ones() {
        List<RowRecord> rows = pendingRows(List.of(), List.of("O-1", "O-2", "O-3"), List.of(), List.of());

        assertThat(pollCountingPages(rows)).as("the newest page, then the pending one").isEqualTo(2);

        assertLookedAtAgain("O-1", "O-2", "O-3");
    }

    @Test
    void an_older_order_found_neither_lately_nor_pending_is_then_searched_among_the_final_ones() {
        List<RowRecord> rows = pendingRows(List.of("P-1"), List.of("P-2", "P-3"), List.of(), List.of());

        // the worst case, an order final long ago: newest, pending, then success pages 1-3 (it is on the last)
        assertThat(pollCountingPages(rows)).as("history pages asked").isEqualTo(5);

        assertThat(inJournal.row("P-1").state()).isEqualTo(RowState.SUCCESS);
        assertLookedAtAgain("P-2", "P-3");
    }
}
