package org.topupbatch.observe;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchOverview;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.RowState;

/**
 * What the journal says about the run, read at most once every few seconds however many pages
 * and scrapers ask: the metrics' gauges and the dashboard share one reading.
 */
public final class RunReadings {

    /** One reading of the journal. */
    public record Reading(Map<RowState, Long> rowsByState, List<BatchOverview> batches, Optional<Long> balance,
                          Instant at) {

        /** Orders sent whose final status is still to learn. */
        public long pendingOrders() {
            return rowsByState.getOrDefault(RowState.SENDING, 0L) + rowsByState.getOrDefault(RowState.PENDING, 0L)
                    + rowsByState.getOrDefault(RowState.UNKNOWN, 0L);
        }
    }

    static final Duration FRESH = Duration.ofSeconds(2);
    static final int BATCHES_SHOWN = 20;
    private static final Logger LOG = LoggerFactory.getLogger(RunReadings.class);

    private final Journal journal;
    private final Clock clock;
    private final Consumer<Reading> onRead;
    private Reading last;
    private boolean failing;

    /** {@code onRead} sees every new reading (the metrics learn of finished batches there). */
    public RunReadings(Journal journal, Clock clock, Consumer<Reading> onRead) {
        this.journal = journal;
        this.clock = clock;
        this.onRead = onRead;
        this.last = new Reading(Map.of(), List.of(), Optional.empty(), Instant.EPOCH);
    }

    /** The latest reading; the previous one while the journal does not answer (health says so). */
    public synchronized Reading current() {
        Instant now = clock.instant();
        if (Duration.between(last.at(), now).compareTo(FRESH) < 0) {
            return last;
        }
        try {
            last = new Reading(journal.rowsByState(), journal.batchOverviews(BATCHES_SHOWN), journal.latestBalance(), now);
            failing = false;
            onRead.accept(last);
        } catch (JournalException e) {
            if (!failing) {
                LOG.warn("The dashboard and metrics show the last reading: the journal does not answer ({})", e.getMessage());
                failing = true;
            }
        }
        return last;
    }
}
