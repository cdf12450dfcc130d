package org.topupbatch.config;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.ReconcileJournal.BalanceReading;
import org.topupbatch.provider.BalanceSeen;

/**
 * The service's balance readings, each journaled with its moment (docs/reconcile.md): a day's
 * reconciliation starts the day's balance from its first reading. Only the service keeps them; the
 * commands, which may read a journal without writing it, do not. A reading that cannot be journaled
 * costs only precision: it is said once, and the balance is used as usual.
 */
final class JournaledBalanceReadings implements BalanceSeen.ReadingListener {

    private static final Logger LOG = LoggerFactory.getLogger(JournaledBalanceReadings.class);

    private final Supplier<Journal> journal;
    private final String account;
    private final AtomicBoolean toldFailure = new AtomicBoolean();

    /** @param account the account read (several accounts), or null with one account */
    JournaledBalanceReadings(Supplier<Journal> journal, String account) {
        this.journal = journal;
        this.account = account;
    }

    @Override
    public void read(long balance, Instant askedAt, Instant answeredAt) {
        try {
            journal.get().reconciliations().recordBalanceReading(new BalanceReading(account, balance, askedAt, answeredAt));
        } catch (RuntimeException e) {
            if (toldFailure.compareAndSet(false, true)) {
                LOG.warn("A balance reading could not be journaled ({}); reconciliation starts the day from another one",
                        e.getMessage() == null ? e.toString() : e.getMessage());
            }
        }
    }
}
