package org.topupbatch.journal;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The operator's three actions on a batch, as the {@code hold}, {@code resume} and {@code cancel}
 * commands and the dashboard's buttons take them: applied to the journal, answered in one sentence.
 */
public enum OperatorAction {
    HOLD, RESUME, CANCEL;

    /** What the action did, in one sentence, and whether it changed anything. */
    public record Outcome(boolean changed, String message) {
    }

    /** The action named {@code hold}, {@code resume} or {@code cancel} (any case). */
    public static Optional<OperatorAction> named(String name) {
        for (OperatorAction a : values()) {
            if (a.word().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** The word of the command and the button. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Applies the action through {@code control}; {@code reporting} counts the batch's rows for the sentence. */
    public Outcome apply(BatchControl control, ReportingJournal reporting, BatchRecord batch, Instant now) {
        String shown = "Batch " + batch.id() + " (" + org.topupbatch.text.OneLine.of(batch.fileName(), 200) + ")";
        return switch (this) {
            case HOLD -> {
                if (batch.cancelled()) {
                    yield new Outcome(false, shown + " was cancelled: nothing is left to hold.");
                }
                if (!batch.held() && queued(reporting, batch) == 0) {
                    // every row is sent or settled: a hold would change nothing, so none is recorded
                    yield new Outcome(false, shown + ": nothing to hold: " + (batch.reportedAt() != null
                            ? "the batch is reported" : "every row of it is sent already") + "; no row waits to be sent.");
                }
                if (!control.holdBatch(batch.id(), now)) {
                    yield new Outcome(false, shown + " is held already; 'resume " + batch.id() + "' lets it go on.");
                }
                yield new Outcome(true, shown + " is held: its " + queued(reporting, batch) + " rows queued stay unsent until"
                        + " 'resume " + batch.id() + "'; orders already sent are tracked as usual.");
            }
            case RESUME -> control.resumeBatch(batch.id())
                    ? new Outcome(true, shown + " goes on: its " + queued(reporting, batch) + " rows queued will be sent.")
                    : new Outcome(false, shown + (batch.cancelled() ? " was cancelled: nothing to resume."
                            : " is not held: nothing to resume."));
            case CANCEL -> {
                int rejected = control.cancelBatch(batch.id(), now, BatchControl.cancelledMessage(now));
                if (rejected < 0) {
                    yield new Outcome(false, shown + " was cancelled already.");
                }
                BatchProgress p = reporting.progress(batch.id());
                long sent = p.rows() - p.count(RowState.REJECTED) - p.count(RowState.ACCEPTED);
                yield new Outcome(true, shown + " is cancelled: " + rejected + " rows not yet sent will never be sent"
                        + " (reported rejected, \"cancelled ...\"); " + sent + " orders already sent are tracked to the end"
                        + " and reported as usual.");
            }
        };
    }

    private static long queued(ReportingJournal reporting, BatchRecord batch) {
        // a row waiting for the outcome of the order it repeats may be sent yet: it is queued too
        BatchProgress p = reporting.progress(batch.id());
        return p.count(RowState.ACCEPTED) + p.count(RowState.WAITING);
    }
}
