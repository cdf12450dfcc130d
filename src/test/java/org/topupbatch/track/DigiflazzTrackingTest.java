package org.topupbatch.track;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.MutableClock;
import org.topupbatch.testing.SandboxClient;
import org.topupbatch.testing.Poll;

/**
 * Tracking with a provider whose only status check is sending the same transaction again
 * (Digiflazz): a real H2 journal and the sandbox speaking Digiflazz over HTTP.
 */
class DigiflazzTrackingTest {

    @RegisterExtension
    final SandboxClient provider = SandboxClient.on(() -> SandboxConfig.defaults().setDialect(SandboxDialect.DIGIFLAZZ)
            .setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(300))));

    @TempDir
    Path dir;

    MutableClock clock;
    final SandboxProvider sandbox = provider.sandbox();
    final ProviderGateway gateway = provider.gateway();
    JdbcJournal journal;
    RowsInJournal inJournal;
    TrackedOrders tracked;

    @BeforeEach
    void start() {
        // the journal's clock near the real one: the 89 days are counted from the row's sent_at
        clock = new MutableClock(Instant.now());
        journal = JdbcJournal.open(dir, "", null, null, clock);
        inJournal = new RowsInJournal(journal, clock);
        tracked = new TrackedOrders(journal.tracking(), clock, false);
    }

    @AfterEach
    void stop() {
        journal.close();
    }

    static NewRow order(int seq, String refId, String sku, String customer) {
        return new NewRow(seq, seq + 2L, refId, sku, customer, null, null, List.of(), RowState.ACCEPTED, 10_800L, null);
    }

    long ordersAtProvider(String refId) {
        return sandbox.ledger().stream().map(LedgerEntry::refId).filter(refId::equals).count();
    }

    UnknownOrderReconciliation reconciliation() {
        return new UnknownOrderReconciliation(gateway, new OrderHistorySearch(gateway, tracked, clock), tracked,
                journal.reporting()::batch, clock, new OrderRequests(new BigDecimal("10")));
    }

    PendingOrderPolling polling() {
        return new PendingOrderPolling(gateway, new OrderHistorySearch(gateway, tracked, clock), tracked,
                new OrderRequests(new BigDecimal("10")));
    }

    @Test
    void an_unknown_order_that_never_arrived_is_made_once_by_sending_it_again() {
        inJournal.batch(order(0, "DU-1", "TSEL10", "081212340001"));
        inJournal.sentWith("DU-1", RowState.UNKNOWN);

        reconciliation().reconcile(inJournal.row("DU-1"));
        reconciliation().reconcile(inJournal.row("DU-1")); // and again: the same transaction, not a second one

        assertThat(ordersAtProvider("DU-1")).isEqualTo(1);
        assertThat(inJournal.row("DU-1").state()).isIn(RowState.PENDING, RowState.SUCCESS);
    }

    @Test
    void a_pending_order_is_settled_by_sending_the_same_request_again() throws Exception {
        inJournal.batch(order(0, "DP-1", "TSEL10", "081212340002"));
        journal.submission().markSending(inJournal.row("DP-1").id(), clock.instant());
        gateway.createOrder(new OrderRequests(new BigDecimal("10")).of(inJournal.row("DP-1")));
        journal.submission().recordOutcome(inJournal.row("DP-1").id(), RowState.PENDING, null, null, "pending");
        Poll.until("the sandbox settles DP-1", Duration.ofSeconds(30), () -> sandbox.ledger().stream()
                .anyMatch(e -> e.refId().equals("DP-1") && !e.status().equals("pending")));

        polling().poll(List.of(inJournal.row("DP-1")));

        assertThat(inJournal.row("DP-1").state()).isEqualTo(RowState.SUCCESS);
        assertThat(ordersAtProvider("DP-1")).isEqualTo(1);
    }

    @Test
    void an_unknown_order_refused_when_sent_again_was_never_made_and_is_failed_with_the_reason() {
        sandbox.config().setUnavailable(List.of("TSEL10"));
        inJournal.batch(order(0, "DR-1", "TSEL10", "081212340003"));
        inJournal.sentWith("DR-1", RowState.UNKNOWN);

        reconciliation().reconcile(inJournal.row("DR-1"));

        assertThat(ordersAtProvider("DR-1")).isZero();
        assertThat(inJournal.row("DR-1").state().isFinal()).isTrue();
        assertThat(inJournal.row("DR-1").message()).isNotBlank();
    }

    /** Digiflazz: a ref_id checked after 90 days makes a new transaction. Never from us. */
    @Test
    void an_order_first_sent_ninety_days_ago_is_never_sent_again() {
        inJournal.batch(order(0, "DO-1", "TSEL10", "081212340004"), order(1, "DO-2", "TSEL10", "081212340005"));
        clock.set(Instant.now().minus(Duration.ofDays(90)));
        inJournal.sentWith("DO-1", RowState.UNKNOWN);
        inJournal.sentWith("DO-2", RowState.PENDING);
        clock.set(Instant.now());

        reconciliation().reconcile(inJournal.row("DO-1"));
        polling().poll(List.of(inJournal.row("DO-2")));

        assertThat(ordersAtProvider("DO-1")).isZero();
        assertThat(ordersAtProvider("DO-2")).isZero();
        assertThat(inJournal.row("DO-1").state()).isEqualTo(RowState.UNKNOWN);
        assertThat(inJournal.row("DO-2").state()).isEqualTo(RowState.PENDING);
    }
}
