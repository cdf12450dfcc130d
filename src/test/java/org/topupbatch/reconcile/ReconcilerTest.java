package org.topupbatch.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.SandboxClient;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.HttpProviderClient;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * The reconciler's judgements on a real H2 journal against the sandbox over HTTP: an order another
 * client placed under one of our ref_ids is not ours (the journal is left alone), and a run's record
 * keeps an unknown {@code unexplained} unknown.
 */
class ReconcilerTest {

    @RegisterExtension
    final SandboxClient provider = SandboxClient.on(SandboxConfig::defaults).unpaced(6000);

    @TempDir
    Path dir;
    final SandboxProvider sandbox = provider.sandbox();
    final HttpProviderClient client = provider.client();
    final ProviderGateway gateway = provider.gateway();
    JdbcJournal journal;
    final Clock clock = Clock.systemUTC();

    @BeforeEach
    void start() {
        journal = JdbcJournal.open(dir, "", null, null, clock);
    }

    @AfterEach
    void stop() {
        journal.close();
    }

    @Test
    void another_clients_order_under_our_ref_id_is_listed_as_not_ours_and_our_row_is_left_alone() {
        try (BatchWriter writer = journal.intake().openBatch("t.csv", ',', List.of(), "archive/t.csv")) {
            writer.add(new NewRow(0, 2L, "MINE-1", "FF100", "31234567", null, null, List.of(), RowState.ACCEPTED, 13_300L, null));
            writer.commit();
        }
        RowRecord row = journal.tracking().findOrder("MINE-1").orElseThrow();
        journal.submission().markSending(row.id(), clock.instant().minusSeconds(30));
        journal.submission().recordOutcome(row.id(), RowState.UNKNOWN, null, null, "no answer");
        LedgerEntry foreign = sandbox.foreignOrder("MINE-1", "FF100", "39999999", null); // the same ref_id, another customer

        // the day of the provider's order, not of the clock afterwards: Jakarta's day turns at 17:00 UTC
        ZoneId jakarta = ZoneId.of("Asia/Jakarta");
        Reconciliation result = new Reconciler(gateway, journal.reconciliations(), journal.tracking(), Duration.ofMinutes(30), clock)
                .reconcile(new ReconcileDay(LocalDate.ofInstant(foreign.createdAt(), jakarta), jakarta));

        assertThat(result.lines()).singleElement().satisfies(line -> {
            assertThat(line.kind()).isEqualTo(ExceptionKind.UNKNOWN_TO_JOURNAL);
            assertThat(line.message()).startsWith("the provider holds another order under our ref_id (FF100 for 39999999)");
        });
        assertThat(journal.tracking().findOrder("MINE-1").orElseThrow().state()).as("not settled by another's order")
                .isEqualTo(RowState.UNKNOWN);
        assertThat(result.summary().foreignCharged()).isEqualTo(sandbox.ledger().get(0).price());
        assertThat(result.summary().settled()).isZero();
    }

    @Test
    void a_run_without_an_unexplained_amount_is_read_back_without_one() {
        ReconcileJournal runs = journal.reconciliations();
        runs.recordReconciliation(new ReconcileJournal.Reconciliation("2026-11-24", "Asia/Jakarta", clock.instant(), 0, 0, 0,
                Map.of("unknown_to_journal", 0L), 0, null, "reports/reconcile-2026-11-24.summary.json"));
        assertThat(runs.lastReconciliation().orElseThrow().unexplained()).isNull();
        runs.recordReconciliation(new ReconcileJournal.Reconciliation("2026-11-24", "Asia/Jakarta", clock.instant().plusSeconds(1),
                0, 0, 0, Map.of(), 0, 500_000L, "reports/reconcile-2026-11-24.summary.json"));
        assertThat(runs.lastReconciliation().orElseThrow().unexplained()).isEqualTo(500_000L);
    }
}
