package org.topupbatch.journal;

import org.topupbatch.provider.CallLog;

/**
 * The durable record of batches, rows and their orders, and of recent provider calls and the
 * account's limits: the union of the roles each part of the product uses ({@link IntakeJournal},
 * {@link OrderQueue}, {@link TrackingJournal}, {@link ReportingJournal}, {@link StatusJournal}, {@link CallLog}), for
 * the code that opens, wires and closes it. A class that uses the journal depends on its role only.
 * Every method commits before it returns (except {@link BatchWriter}, which commits on demand),
 * so that what a method reports done survives a SIGKILL right after.
 * Safe for use from several threads.
 */
public interface Journal extends IntakeJournal, OrderQueue, TrackingJournal, ReportingJournal, StatusJournal, CallLog,
        ProductOutages, BatchControl, AutoCloseable {

    /**
     * Several accounts: the calls of one named account, which its rate budget counts (docs/accounts-and-dialects.md#several-accounts). This journal's whole log where the calls are not told apart by account.
     */
    default CallLog callLogOf(String account) {
        return this;
    }

    /** The rows that wait for the outcome of an order they repeat (docs/batch-files-and-reports.md#rejected-rows). */
    RepeatWaits repeatWaits();

    /**
     * Where an account's last price list is kept across restarts ({@code null} account: the single
     * account); {@code provider} (its base URL) tells lists of different providers apart.
     */
    org.topupbatch.provider.PriceListKeeper priceListOf(String account, String provider);

    /** Reconciliation with the provider: the day's orders, corrections, the runs' results. */
    ReconcileJournal reconciliations();

    @Override
    void close();
}
