package org.topupbatch.submit;

import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.SubmissionJournal;
import org.topupbatch.provider.Balance;
import org.topupbatch.provider.ProviderException;

/**
 * Reads the balance right before a batch's first order, once per batch, before any of its orders
 * leave (the summary's balance_before).
 */
final class BalanceBefore {

    private static final Logger LOG = LoggerFactory.getLogger(BalanceBefore.class);

    private final SubmissionJournal journal;
    private final Supplier<Balance> balance;
    private final Clock clock;
    private final Set<Long> started = ConcurrentHashMap.newKeySet();

    BalanceBefore(SubmissionJournal journal, Supplier<Balance> balance, Clock clock) {
        this.journal = journal;
        this.balance = balance;
        this.clock = clock;
    }

    /** Makes sure the batch's balance_before is recorded; throws when the provider could not tell it. */
    void ensureRecorded(long batchId) {
        if (started.contains(batchId)) {
            return;
        }
        synchronized (this) {
            if (started.contains(batchId)) {
                return;
            }
            BatchRecord batch = journal.batch(batchId).orElse(null);
            if (batch != null && batch.submitStartedAt() == null) {
                try {
                    long amount = balance.get().balance();
                    journal.recordSubmitStart(batchId, amount, clock.instant());
                    LOG.info("Submitting batch {} (balance {} IDR)", batch.fileName(), amount);
                } catch (ProviderException e) {
                    LOG.warn("Could not read the balance before batch {}: {}; will try again", batch.fileName(), e.getMessage());
                    throw e;
                }
            }
            started.add(batchId);
        }
    }
}
