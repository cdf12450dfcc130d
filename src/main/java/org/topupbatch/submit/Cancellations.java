package org.topupbatch.submit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchControl;
import org.topupbatch.journal.BatchRecord;

/**
 * Takes up what {@code cancel BATCH} wrote into the journal, perhaps from another process
 * (routes/submit.yaml, route batch-cancellations, every second): rows of a cancelled batch still
 * queued (one returned to the queue after the cancel, or a cancel cut short) are rejected too, and
 * each newly cancelled batch goes to the report route, so its report is written within seconds once
 * its sent orders are final rather than at the next backstop.
 */
public final class Cancellations {

    /** Cancels are looked for again this far back: the commands' clocks may be a little behind ours. */
    static final Duration OVERLAP = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(Cancellations.class);

    private final BatchControl journal;
    private final Clock clock;
    private final Set<Long> seen = ConcurrentHashMap.newKeySet();
    private Instant lastLook;

    public Cancellations(BatchControl journal, Clock clock) {
        this.journal = journal;
        this.clock = clock;
        this.lastLook = clock.instant().minus(Duration.ofMinutes(10));
    }

    /** The ids of the batches cancelled since the last look (for the report route). */
    public synchronized List<Long> newlyCancelled() {
        for (BatchRecord batch : journal.cancelledWithRowsQueued()) {
            int rejected = journal.rejectQueuedOfCancelled(batch.id(), BatchControl.cancelledMessage(batch.cancelledAt()));
            if (rejected > 0) {
                LOG.info("Batch {} is cancelled: {} more rows not sent", batch.fileName(), rejected);
            }
        }
        Instant now = clock.instant();
        List<Long> fresh = new ArrayList<>();
        for (BatchRecord batch : journal.cancelledSince(lastLook.minus(OVERLAP))) {
            if (seen.add(batch.id())) {
                fresh.add(batch.id());
                LOG.warn("Batch {} was cancelled by the operator at {}: its rows not yet sent are not sent; its sent"
                        + " orders are tracked and reported", batch.fileName(), batch.cancelledAt());
            }
        }
        lastLook = now;
        return fresh;
    }
}
