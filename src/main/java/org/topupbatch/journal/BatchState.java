package org.topupbatch.journal;

import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.RowState;

/**
 * Where a batch stands, in one word for operators, from its journal record and row counts alone:
 * unreadable, halted, queued (rows accepted, no order sent yet), submitting, tracking (orders
 * sent, some not final), reporting (all final, report not yet written), reported.
 */
public final class BatchState {

    private BatchState() {
    }

    public static String of(BatchRecord batch, BatchProgress progress) {
        if (batch.error() != null) {
            return "unreadable";
        }
        if (batch.haltReason() != null) {
            return "halted";
        }
        long toSend = progress.count(RowState.ACCEPTED) + progress.count(RowState.SENDING);
        if (toSend > 0) {
            return batch.submitStartedAt() == null && progress.count(RowState.SENDING) == 0 ? "queued" : "submitting";
        }
        if (progress.count(RowState.PENDING) + progress.count(RowState.UNKNOWN) > 0) {
            return "tracking";
        }
        return batch.reportedAt() != null && batch.reportComplete() ? "reported" : "reporting";
    }

    /** True while the run still has work on the batch (orders to send or to learn the outcome of). */
    public static boolean active(String state) {
        return state.equals("queued") || state.equals("submitting") || state.equals("tracking");
    }
}
