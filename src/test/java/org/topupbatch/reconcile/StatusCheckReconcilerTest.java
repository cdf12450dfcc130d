package org.topupbatch.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.MutableClock;
import org.topupbatch.testing.SandboxClient;
import org.topupbatch.track.OrderRequests;

/**
 * Reconciling an account without order history (Digiflazz) by status checks, on a real H2 journal
 * against the sandbox speaking Digiflazz over HTTP, whose ref_id re-sent for an order it never made
 * makes one: only orders the provider answered as made are re-sent, so reconciling never orders.
 */
class StatusCheckReconcilerTest {

    static final ZoneId JAKARTA = ZoneId.of("Asia/Jakarta");

    @RegisterExtension
    final SandboxClient provider = SandboxClient.on(() -> SandboxConfig.defaults().setDialect(SandboxDialect.DIGIFLAZZ));

    @TempDir
    Path dir;
    MutableClock clock;
    final SandboxProvider sandbox = provider.sandbox();
    final ProviderGateway gateway = provider.gateway();
    JdbcJournal journal;
    final OrderRequests requests = new OrderRequests(new BigDecimal("10"));

    @BeforeEach
    void start() {
        clock = new MutableClock(Instant.now());
        journal = JdbcJournal.open(dir, "", null, null, clock);
    }

    @AfterEach
    void stop() {
        journal.close();
    }

    private void batch(String... refIds) {
        try (BatchWriter writer = journal.intake().openBatch("t.csv", ',', List.of(), "archive/t.csv")) {
            for (int i = 0; i < refIds.length; i++) {
                writer.add(new NewRow(i, i + 2L, refIds[i], "TSEL10", "08121234" + String.format("%04d", i + 1), null, null, List.of(),
                        RowState.ACCEPTED, 10_800L, null));
            }
            writer.commit();
        }
    }

    private RowRecord row(String refId) {
        return journal.tracking().findOrder(refId).orElseThrow();
    }

    /** Ordered at the provider, and its answer in the journal. */
    private void ordered(String refId) {
        journal.submission().markSending(row(refId).id(), clock.instant());
        Order answer = gateway.createOrder(requests.of(row(refId)));
        journal.submission().recordOutcome(row(refId).id(), RowState.valueOf(answer.status().name()), answer.serialNumber(),
                answer.price(), answer.message());
    }

    /** In the journal as sent with this outcome, never made at the provider (a refusal failed, a request lost). */
    private void neverMade(String refId, RowState outcome) {
        journal.submission().markSending(row(refId).id(), clock.instant());
        journal.submission().recordOutcome(row(refId).id(), outcome, null, null, outcome.name());
    }

    private long atProvider(String refId) {
        return sandbox.ledger().stream().map(LedgerEntry::refId).filter(refId::equals).count();
    }

    private StatusCheckReconciler.Checked reconcile(LocalDate day) {
        return new StatusCheckReconciler(gateway, journal.reconciliations(), journal.tracking(), Duration.ofMinutes(30), requests,
                clock, null).reconcile(new ReconcileDay(day, JAKARTA));
    }

    @Test
    void the_journals_orders_are_checked_a_refund_is_followed_and_nothing_is_ordered() {
        batch("SC-1", "SC-2", "SC-3", "SC-4");
        ordered("SC-1");
        ordered("SC-2");
        neverMade("SC-3", RowState.FAILED);
        neverMade("SC-4", RowState.UNKNOWN);
        LedgerEntry refunded = sandbox.refund("SC-2");
        int ordersBefore = sandbox.ledger().size();
        clock.advance(Duration.ofSeconds(5));

        StatusCheckReconciler.Checked checked = reconcile(LocalDate.ofInstant(clock.instant(), JAKARTA));

        ReconcileSummary s = checked.result().summary();
        assertThat(s.journalOrders()).isEqualTo(4);
        assertThat(s.providerOrders()).as("found at the provider").isEqualTo(2);
        assertThat(s.matched()).isEqualTo(1);
        assertThat(checked.notLookedUp()).as("the failed and the unknown order").isEqualTo(2);
        assertThat(s.requests()).as("the balance and the two status checks").isEqualTo(3);
        assertThat(s.exceptions().get("status_differs")).isEqualTo(1);
        assertThat(s.exceptionCount()).isEqualTo(1);
        assertThat(checked.result().lines()).singleElement().satisfies(line -> {
            assertThat(line.refId()).isEqualTo("SC-2");
            assertThat(line.message()).startsWith("refunded after success");
        });
        assertThat(row("SC-2").state()).as("the journal follows the provider").isEqualTo(RowState.FAILED);
        assertThat(s.corrected()).isEqualTo(1);
        assertThat(s.refunded()).isEqualTo(refunded.price());
        assertThat(s.charged()).isEqualTo(sandbox.ledger().stream().filter(e -> e.refId().equals("SC-1")).findFirst()
                .orElseThrow().price());
        assertThat(s.balanceNow()).isEqualTo(sandbox.balance());
        assertThat(s.balanceFirst()).as("no history: the balance before the day is not known").isNull();
        assertThat(s.unexplained()).isNull();
        assertThat(sandbox.ledger()).as("reconciling ordered nothing").hasSize(ordersBefore);
        assertThat(atProvider("SC-3") + atProvider("SC-4")).as("neither never-made order was made").isZero();
        assertThat(row("SC-4").state()).isEqualTo(RowState.UNKNOWN);
    }

    @Test
    void an_order_older_than_the_resend_window_is_not_looked_up() {
        batch("OLD-1");
        Instant now = clock.instant();
        clock.set(now.minus(Duration.ofDays(100)));
        // in the journal as a success the provider no longer knows as such: a re-send would make it anew
        neverMade("OLD-1", RowState.SUCCESS);
        LocalDate day = LocalDate.ofInstant(clock.instant(), JAKARTA);
        clock.set(now);

        StatusCheckReconciler.Checked checked = reconcile(day);

        assertThat(checked.result().summary().journalOrders()).isEqualTo(1);
        assertThat(checked.notLookedUp()).isEqualTo(1);
        assertThat(checked.result().summary().requests()).as("the balance only").isEqualTo(1);
        assertThat(sandbox.ledger()).as("reconciling ordered nothing").isEmpty();
    }
}
