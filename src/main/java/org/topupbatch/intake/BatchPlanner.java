package org.topupbatch.intake;

import org.topupbatch.settings.BalancePolicy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/**
 * Turns one batch file into journal rows: every data row is added to the writer, in file order,
 * ACCEPTED at its price or REJECTED with its one reason. The caller commits the writer.
 *
 * <p>ref_id uniqueness is asked of the writer, which sees this file's rows not yet committed as
 * well as earlier batches: the first row with a ref_id wins, later ones are rejected. A rejected
 * row does not take its ref_id, so a later row may still use it.
 *
 * <p>Balance: best-effort keeps a running total of accepted prices and rejects a row that no
 * longer fits (later, cheaper rows may still fit); all-or-nothing rejects every accepted row after
 * the last one when their total exceeds the balance.
 *
 * <p>An {@link UnreadableBatchException} from the reader (the file turned out not to be text)
 * leaves the planner; the caller then closes the writer uncommitted and records the file as
 * unreadable.
 */
public final class BatchPlanner {

    /** Rows read ahead and checked against the journal together (the journal writer sends as many at once). */
    static final int CHUNK = 1_000;
    /** Characters of rows read ahead at most: wide rows make smaller chunks, so memory stays flat. */
    static final long CHUNK_CHARS = 2_000_000;

    private final RowValidator validator;
    private final BalancePolicy policy;

    public BatchPlanner(RowValidator validator, BalancePolicy policy) {
        this.validator = validator;
        this.policy = policy;
    }

    /**
     * The first row with a ref_id counts, even a rejected one (README, "Rejected rows"); a ref_id an
     * earlier batch ordered is taken for good.
     */
    static String refIdConflict(BatchWriter writer, String refId) {
        Long line = writer.lineInThisBatch(refId);
        if (line != null) {
            return "ref_id " + refId + " repeats line " + line + " of this file";
        }
        return writer.refIdTaken(refId) ? RowValidator.alreadySubmitted(refId) : null;
    }

    /** Hears each row's verdict as it is made (plan shows rejections and warnings from it). */
    @FunctionalInterface
    public interface RowListener {
        RowListener NONE = (row, decision, rejection) -> { };

        /** {@code rejection} is the row's final reason, or null when it was accepted (before all-or-nothing). */
        void decided(BatchRow row, RowDecision decision, String rejection);
    }

    public PlanSummary plan(CsvBatchReader reader, BatchWriter writer, long balance) {
        return plan(reader, writer, balance, RowListener.NONE);
    }

    public PlanSummary plan(CsvBatchReader reader, BatchWriter writer, long balance, RowListener listener) {
        int rows = 0;
        int accepted = 0;
        long total = 0;
        List<BatchRow> chunk = new ArrayList<>(CHUNK);
        Iterator<BatchRow> read = reader.iterator();
        while (read.hasNext()) {
            chunk.clear();
            long chars = 0;
            while (chunk.size() < CHUNK && chars < CHUNK_CHARS && read.hasNext()) {
                BatchRow row = read.next();
                chunk.add(row);
                chars += row.chars();
            }
            // one look-up for the chunk's ref_ids instead of one per row
            writer.expect(chunk.stream().map(BatchRow::refId).toList());
            for (BatchRow row : chunk) {
                rows++;
                RowDecision decision = validator.validateAgainst(row, ref -> refIdConflict(writer, ref));
                String reason = decision.reason();
                if (decision.accepted() && policy == BalancePolicy.BEST_EFFORT && total + decision.price() > balance) {
                    reason = "insufficient balance: price " + decision.price() + ", " + Math.max(0, balance - total)
                            + " left of " + balance + " for this batch";
                }
                listener.decided(row, decision, reason);
                if (reason == null) {
                    accepted++;
                    total += decision.price();
                    writer.add(newRow(row, decision, RowState.ACCEPTED, decision.price(), null));
                } else {
                    writer.add(newRow(row, decision, RowState.REJECTED, null, reason));
                }
            }
        }
        if (policy == BalancePolicy.ALL_OR_NOTHING && total > balance) {
            writer.rejectAllAccepted("insufficient balance (all-or-nothing): the " + accepted
                    + " valid rows cost " + total + ", the balance is " + balance);
            accepted = 0;
            total = 0;
        }
        return new PlanSummary(rows, accepted, rows - accepted, total);
    }

    private static NewRow newRow(BatchRow row, RowDecision decision, RowState state, Long price, String message) {
        return new NewRow(row.seq(), row.line(), row.refId(), row.productSku(), row.customerNo(),
                row.customerNoZone().isEmpty() ? null : row.customerNoZone(), decision.maxPrice(),
                row.extras(), state, price, message);
    }
}
