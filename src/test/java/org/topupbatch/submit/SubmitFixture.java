package org.topupbatch.submit;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Balance;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.testing.MutableClock;

/** A real H2 journal with one batch of ACCEPTED rows, the submit beans over it, and a test clock. */
final class SubmitFixture implements AutoCloseable {

    static final Instant T0 = Instant.parse("2025-03-01T08:00:00Z");

    final MutableClock clock = new MutableClock(T0);
    final JdbcJournal journal;
    final long batchId;
    final AtomicInteger balanceReads = new AtomicInteger();
    final List<ProviderException> rateLimited = new ArrayList<>();
    volatile Supplier<Balance> balance = () -> new Balance(900_000, "IDR", "basic", "Demo");
    final OrderQueue queue;
    final SubmitOutcomes outcomes;

    SubmitFixture(Path dir, int rows) {
        journal = JdbcJournal.open(dir.resolve("data"), null, null, null, clock);
        try (BatchWriter writer = journal.openBatch("orders.csv", ',', org.topupbatch.journal.BatchEncoding.UTF_8, List.of(), "archive/orders.csv", 900_000L, "sandbox")) {
            for (int i = 0; i < rows; i++) {
                writer.add(new NewRow(i, i + 2, "R-" + i, "ML86", "12345678" + i, "1234", null, List.of(),
                        RowState.ACCEPTED, 20_000L, null));
            }
            batchId = writer.commit();
        }
        BalanceBefore before = new BalanceBefore(journal, () -> {
            balanceReads.incrementAndGet();
            return balance.get();
        }, clock);
        queue = new OrderQueue(journal, before, clock);
        outcomes = new SubmitOutcomes(journal, queue, rateLimited::add, clock);
    }

    RowRecord row(int i) {
        return journal.findOrder("R-" + i).orElseThrow();
    }

    RowState state(int i) {
        return row(i).state();
    }

    /** Marks the row SENDING as the route does once its reservation is held. */
    RowRecord sending(int i) {
        RowRecord row = row(i);
        if (!journal.markSending(row.id(), clock.instant())) {
            throw new IllegalStateException("row " + i + " was not ACCEPTED");
        }
        return row(i);
    }

    @Override
    public void close() {
        journal.close();
    }
}
