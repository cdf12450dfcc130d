package org.topupbatch.submit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.SubmissionJournal;

/**
 * Whether an operator holds or cancelled a batch ({@code hold}, {@code cancel}, possibly from another
 * process), as the journal said at most {@link #FRESH} ago: asked before a row waits for the rate
 * budget, so that the rows of a submit round already taken stop within a second instead of each
 * spending a request slot. The journal's own condition on marking a row SENDING is what makes a hold
 * or cancel exact; this only saves the budget.
 */
final class OperatorHolds {

    static final Duration FRESH = Duration.ofSeconds(1);

    private record Seen(boolean stopped, Instant at) {
    }

    private final SubmissionJournal journal;
    private final Clock clock;
    private final Map<Long, Seen> seen = new ConcurrentHashMap<>();

    OperatorHolds(SubmissionJournal journal, Clock clock) {
        this.journal = journal;
        this.clock = clock;
    }

    boolean stopped(long batchId) {
        Instant now = clock.instant();
        Seen last = seen.get(batchId);
        if (last != null && now.isBefore(last.at().plus(FRESH))) {
            return last.stopped();
        }
        boolean stopped = journal.batch(batchId).map(b -> b.held() || b.cancelled()).orElse(false);
        if (seen.size() > 1_000) {
            seen.clear(); // a long-running service sees many batches; only the few active ones matter
        }
        seen.put(batchId, new Seen(stopped, now));
        return stopped;
    }
}
