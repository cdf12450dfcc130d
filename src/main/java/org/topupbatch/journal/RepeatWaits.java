package org.topupbatch.journal;

/**
 * Rows that repeat an order still in flight ({@link RowState#WAITING}, docs/batch-files-and-reports.md#rejected-rows,
 * docs/money-guards.md) are decided here once that order is final: a failed order (FAILED,
 * REFUSED, never sent) is no repeat, so the first row waiting for it is ordered (ACCEPTED) and the
 * others wait for that row instead; a delivered order (SUCCESS) makes every row waiting for it a
 * repeat, rejected naming its ref_id. Each decision is a guarded journal update (only a row still
 * WAITING for that very order changes), so two nodes deciding at once, or a restart in the middle,
 * never order a row twice.
 */
public interface RepeatWaits {

    /** Decides the waiting rows whose order is final now; returns how many rows it decided. */
    int decide();
}
