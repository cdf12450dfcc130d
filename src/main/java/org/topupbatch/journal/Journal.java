package org.topupbatch.journal;

import org.topupbatch.provider.CallLog;
import org.topupbatch.provider.PriceListKeeper;

/**
 * The journal as it is opened and closed: the wiring ({@code config}) and the commands hold it, and
 * hand each part of the product only the role it uses ({@link #intake()}, {@link #submission()},
 * {@link #tracking()} and the others). It offers no journal operation of its own, so no business
 * class can come to depend on all of them (an ArchUnit rule in PackageLayersTest keeps it outside
 * the business packages). Every role's method commits before it returns (except {@link BatchWriter},
 * which commits on demand), so that what a method reports done survives a SIGKILL right after.
 * Safe for use from several threads.
 */
public interface Journal extends AutoCloseable {

    /** Batches coming in: a file's rows written, its repeats and earlier orders looked up. */
    IntakeJournal intake();

    /** Accepted rows taken in order, sent, answered. */
    SubmissionJournal submission();

    /** Orders whose outcome is still to be learned. */
    TrackingJournal tracking();

    /** What a batch's report is written from. */
    ReportingJournal reporting();

    /** What the status command, the dashboard and the health check read. */
    StatusJournal status();

    /** The provider calls of this journal's whole log (one account, or all accounts together). */
    CallLog callLog();

    /**
     * Several accounts: the calls of one named account, which its rate budget counts
     * (docs/accounts-and-dialects.md#several-accounts).
     */
    CallLog callLogOf(String account);

    /** Products held after the provider refused them, and the rows that wait for them. */
    ProductOutages outages();

    /** An operator's hold, resume and cancel of a batch. */
    BatchControl control();

    /** The rows that wait for the outcome of an order they repeat (docs/batch-files-and-reports.md#rejected-rows). */
    RepeatWaits repeatWaits();

    /**
     * Where an account's last price list is kept across restarts ({@code null} account: the single
     * account); {@code provider} (its base URL) tells lists of different providers apart.
     */
    PriceListKeeper priceListOf(String account, String provider);

    /** Reconciliation with the provider: the day's orders, corrections, the runs' results. */
    ReconcileJournal reconciliations();

    /** The outgoing messages waiting, delivered or given up (docs/operating.md#notifications). */
    Outbox outbox();

    @Override
    void close();
}
