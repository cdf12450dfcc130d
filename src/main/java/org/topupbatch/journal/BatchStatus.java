package org.topupbatch.journal;

import java.util.Locale;

/**
 * Where a batch stands, in the one word operators see in {@code status}, the progress log and the
 * dashboard, from its journal record and row counts alone. Those places once had two vocabularies
 * (the dashboard said running / reported, orders pending / done); the status command's words won.
 */
public enum BatchStatus {
    /** The file could not be read as a whole: no row was taken. */
    UNREADABLE,
    /** An operator or a check stopped the batch; its reason is on the batch record. */
    HALTED,
    /** An operator holds the batch ({@code hold BATCH}): its queued rows wait for {@code resume}. */
    HELD,
    /** Rows accepted, no order sent yet. */
    QUEUED,
    /** Orders are being sent. */
    SUBMITTING,
    /** All orders sent, some outcomes still to learn. */
    TRACKING,
    /** Every order final, the complete report not yet written. */
    REPORTING,
    /** The complete report is written. */
    REPORTED;

    private final String word = name().toLowerCase(Locale.ROOT);

    public static BatchStatus of(BatchRecord batch, BatchProgress progress) {
        if (batch.error() != null) {
            return UNREADABLE;
        }
        if (batch.haltReason() != null) {
            return HALTED;
        }
        long toSend = progress.count(RowState.ACCEPTED) + progress.count(RowState.SENDING);
        if (batch.held() && progress.count(RowState.ACCEPTED) > 0) {
            return HELD;
        }
        if (toSend > 0) {
            return batch.submitStartedAt() == null && progress.count(RowState.SENDING) == 0 ? QUEUED : SUBMITTING;
        }
        if (progress.count(RowState.PENDING) + progress.count(RowState.UNKNOWN) + progress.count(RowState.WAITING) > 0) {
            return TRACKING;
        }
        return batch.reportedAt() != null && batch.reportComplete() ? REPORTED : REPORTING;
    }

    /** True while the run still has work on the batch (orders to send or to learn the outcome of). */
    public boolean active() {
        return this == QUEUED || this == SUBMITTING || this == TRACKING;
    }

    /** The word operators see. */
    public String word() {
        return word;
    }

    @Override
    public String toString() {
        return word;
    }
}
