package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.Outbox.OutboxEntry;
import org.topupbatch.journal.Outbox.OutgoingMessage;

/**
 * The journal's outbox (migration V26, docs/operating.md#notifications): a message recorded waits
 * until it is delivered or given up, across a reopened journal (a restart); a claim is a guarded
 * update, so of two nodes claiming at once each message goes to one only, and a claim that ran out
 * (a node killed mid-try) can be taken again; a report and its messages are recorded in one
 * transaction, and so are a batch's stop and a reconciliation with their notices; a given-up message is
 * made to wait again by its event id. Run on H2 and PostgreSQL.
 */
abstract class OutboxContractTest extends JournalPerTest {

    static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    static final Duration LEASE = Duration.ofMinutes(10);

    static OutgoingMessage message(String eventId, String target) {
        return new OutgoingMessage(eventId, "batch_reported", "notify", target, "subject", "{\"event\":\"batch_reported\"}", null);
    }

    @Test
    void aRecordedMessageWaitsAcrossARestartUntilDelivered() {
        journal.outbox().add(List.of(message("evt_1", "http://127.0.0.1:1/a")));
        journal.close();
        journal = open();

        Instant now = Instant.now();
        List<OutboxEntry> claimed = journal.outbox().claimDue(now, "node-a", LEASE, 10);
        assertThat(claimed).singleElement().satisfies(e -> {
            assertThat(e.eventId()).isEqualTo("evt_1");
            assertThat(e.tries()).isZero();
            assertThat(e.state()).isEqualTo("WAITING");
        });
        journal.outbox().delivered(claimed.get(0).id(), "node-a", now);
        journal.close();
        journal = open();

        assertThat(journal.outbox().claimDue(now.plus(Duration.ofDays(30)), "node-a", LEASE, 10)).isEmpty();
        assertThat(journal.outbox().state(10).waiting()).isZero();
    }

    @Test
    void aMessageWaitingForItsNextTryIsNotClaimedBeforeIt() {
        journal.outbox().add(List.of(message("evt_2", "http://127.0.0.1:1/a")));
        Instant now = Instant.now();
        OutboxEntry first = journal.outbox().claimDue(now, "node-a", LEASE, 10).get(0);
        journal.outbox().retryAt(first.id(), "node-a", now.plusSeconds(30), "HTTP 500");

        assertThat(journal.outbox().claimDue(now.plusSeconds(29), "node-a", LEASE, 10)).isEmpty();
        OutboxEntry second = journal.outbox().claimDue(now.plusSeconds(30), "node-a", LEASE, 10).get(0);
        assertThat(second.eventId()).as("the same event id on every try").isEqualTo("evt_2");
        assertThat(second.tries()).isEqualTo(1);
        assertThat(second.lastError()).isEqualTo("HTTP 500");
    }

    @Test
    void aClaimedMessageIsNotClaimedByAnotherNodeUntilTheClaimRunsOut() {
        journal.outbox().add(List.of(message("evt_3", "http://127.0.0.1:1/a")));
        Instant now = Instant.now();
        OutboxEntry claimed = journal.outbox().claimDue(now, "node-a", LEASE, 10).get(0);

        assertThat(journal.outbox().claimDue(now.plusSeconds(1), "node-b", LEASE, 10)).isEmpty();
        // node-a was killed mid-try: after its claim ran out, node-b takes the message, same event id
        List<OutboxEntry> taken = journal.outbox().claimDue(now.plus(LEASE).plusSeconds(1), "node-b", LEASE, 10);
        assertThat(taken).singleElement().extracting(OutboxEntry::eventId).isEqualTo("evt_3");
        // node-a's late outcome no longer counts: the claim is node-b's
        journal.outbox().delivered(claimed.id(), "node-a", now);
        assertThat(journal.outbox().state(10).waiting()).isEqualTo(1);
    }

    @Test
    void aRestartedNodeReleasesTheClaimsItsKilledProcessLeft() {
        journal.outbox().add(List.of(message("evt_k", "http://127.0.0.1:1/a")));
        Instant now = Instant.now();
        journal.outbox().claimDue(now, "nodeXa:100", LEASE, 10);
        assertThat(journal.outbox().releaseClaimsOf("node_a")).as("another node's claim stays ('_' is no wildcard)").isZero();
        assertThat(journal.outbox().releaseClaimsOf("node")).as("nor a name that only begins the same").isZero();
        assertThat(journal.outbox().releaseClaimsOf("nodeXa")).isEqualTo(1);
        assertThat(journal.outbox().claimDue(now.plusSeconds(1), "nodeXa:200", LEASE, 10))
                .singleElement().extracting(OutboxEntry::eventId).isEqualTo("evt_k");
    }

    @Test
    void twoNodesClaimingAtOnceNeverShareAMessage() throws Exception {
        List<OutgoingMessage> many = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            many.add(message("evt_m" + i, "http://127.0.0.1:1/a"));
        }
        journal.outbox().add(many);
        Instant now = Instant.now();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Callable<List<Long>>> nodes = new ArrayList<>();
            for (String node : List.of("node-a", "node-b")) {
                nodes.add(() -> {
                    List<Long> ids = new ArrayList<>();
                    List<OutboxEntry> got;
                    while (!(got = journal.outbox().claimDue(now, node, LEASE, 20)).isEmpty()) {
                        got.forEach(e -> ids.add(e.id()));
                    }
                    return ids;
                });
            }
            List<Future<List<Long>>> results = pool.invokeAll(nodes, 2, TimeUnit.MINUTES);
            List<Long> a = results.get(0).get();
            List<Long> b = results.get(1).get();
            Set<Long> all = new HashSet<>(a);
            all.addAll(b);
            assertThat(a.size() + b.size()).as("no message claimed twice").isEqualTo(all.size());
            assertThat(all).as("every message claimed").hasSize(200);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aReportAndItsMessagesAreRecordedTogether() {
        long batch;
        try (BatchWriter writer = journal.intake().openBatch("a.csv", ',', List.of(), "archive/a.csv")) {
            batch = writer.commit();
        }
        journal.outbox().recordDoorCallback("a.csv", "abc123", "https://erp.example.com/cb", T0);
        journal.outbox().recordDoorCallback("a.csv", "fff000", "https://erp.example.com/other", T0);
        journal.outbox().markReported(batch, T0, true, 5_000L,
                List.of(message("evt_r", "http://127.0.0.1:1/a"), message("evt_r", "mock:b")));

        assertThat(journal.reporting().batch(batch).orElseThrow().reportedAt()).isEqualTo(T0);
        assertThat(journal.outbox().state(10).waiting()).isEqualTo(2);
        assertThat(journal.outbox().callbackUrl("a.csv", "archive/a.20261127-100000.abc123.csv"))
                .isEqualTo("https://erp.example.com/cb");
        assertThat(journal.outbox().callbackUrl("a.csv", "archive/a.20261127-100000.999999.csv")).isNull();

        // one message that cannot be stored (the same event for the same endpoint twice): neither is kept
        try (BatchWriter writer = journal.intake().openBatch("b.csv", ',', List.of(), "archive/b.csv")) {
            batch = writer.commit();
        }
        long other = batch;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> journal.outbox().markReported(other, T0, true, null,
                List.of(message("evt_s", "mock:c"), message("evt_s", "mock:c")))).isInstanceOf(JournalException.class);
        assertThat(journal.reporting().batch(other).orElseThrow().reportedAt()).as("the report's record rolled back too").isNull();
        assertThat(journal.outbox().state(10).waiting()).isEqualTo(2);
    }

    @Test
    void aBatchStopAndItsNoticeAreRecordedTogetherAndOnlyOnce() {
        long batch;
        try (BatchWriter writer = journal.intake().openBatch("s.csv", ',', List.of(), "archive/s.csv")) {
            batch = writer.commit();
        }
        assertThat(journal.submission().haltBatch(batch, "INSUFFICIENT_BALANCE", List.of(message("evt_stop", "mock:a")))).isTrue();
        journal.close();
        journal = open(); // a crash right after the stop: the notice is there with it
        assertThat(journal.reporting().batch(batch).orElseThrow().haltReason()).isEqualTo("INSUFFICIENT_BALANCE");
        assertThat(journal.outbox().state(10).waitingListed()).extracting(OutboxEntry::eventId).containsExactly("evt_stop");

        // stopped already: no second notice
        assertThat(journal.submission().haltBatch(batch, "again", List.of(message("evt_again", "mock:a")))).isFalse();
        assertThat(journal.outbox().state(10).waiting()).isEqualTo(1);

        // a notice that cannot be stored: the stop is not recorded either
        long other;
        try (BatchWriter writer = journal.intake().openBatch("t.csv", ',', List.of(), "archive/t.csv")) {
            other = writer.commit();
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> journal.submission().haltBatch(other, "INVALID_SIGNATURE",
                List.of(message("evt_t", "mock:c"), message("evt_t", "mock:c")))).isInstanceOf(JournalException.class);
        assertThat(journal.reporting().batch(other).orElseThrow().haltReason()).as("the stop rolled back too").isNull();
    }

    @Test
    void aReconciliationAndItsNoticeAreRecordedTogether() {
        journal.reconciliations().recordReconciliation(new ReconcileJournal.Reconciliation("2026-11-26", "Asia/Jakarta", T0,
                3, 3, 2, java.util.Map.of("status_differs", 1L), 1, 0L, "reconcile-2026-11-26.summary.json"),
                List.of(message("evt_rec", "mock:a")));
        journal.close();
        journal = open();
        assertThat(journal.reconciliations().lastReconciliation()).get().extracting(ReconcileJournal.Reconciliation::day)
                .isEqualTo("2026-11-26");
        assertThat(journal.outbox().state(10).waitingListed()).extracting(OutboxEntry::eventId).containsExactly("evt_rec");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> journal.reconciliations().recordReconciliation(
                new ReconcileJournal.Reconciliation("2026-11-27", "Asia/Jakarta", T0.plusSeconds(86_400), 0, 0, 0,
                        java.util.Map.of(), 0, 0L, "reconcile-2026-11-27.summary.json"),
                List.of(message("evt_x", "mock:c"), message("evt_x", "mock:c")))).isInstanceOf(JournalException.class);
        assertThat(journal.reconciliations().lastReconciliation()).get().extracting(ReconcileJournal.Reconciliation::day)
                .as("the run rolled back with its notice").isEqualTo("2026-11-26");
    }

    @Test
    void aGivenUpMessageStaysVisibleAndIsSentAgainByItsEventId() {
        journal.outbox().add(List.of(message("evt_g", "http://127.0.0.1:1/a"), message("evt_h", "http://127.0.0.1:1/a")));
        Instant now = Instant.now();
        for (OutboxEntry e : journal.outbox().claimDue(now, "node-a", LEASE, 10)) {
            journal.outbox().giveUp(e.id(), "node-a", now, "HTTP 500");
        }
        Outbox.OutboxState state = journal.outbox().state(10);
        assertThat(state.givenUp()).isEqualTo(2);
        assertThat(state.givenUpListed()).extracting(OutboxEntry::lastError).containsOnly("HTTP 500");
        assertThat(journal.outbox().claimDue(now.plusSeconds(60), "node-a", LEASE, 10)).isEmpty();

        assertThat(journal.outbox().resend("evt_g", now)).isEqualTo(1);
        assertThat(journal.outbox().claimDue(now.plusSeconds(60), "node-a", LEASE, 10))
                .singleElement().extracting(OutboxEntry::eventId).isEqualTo("evt_g");
        assertThat(journal.outbox().resend(null, now)).as("every given-up one").isEqualTo(1);
    }
}
