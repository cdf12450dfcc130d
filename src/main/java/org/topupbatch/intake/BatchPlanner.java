package org.topupbatch.intake;

import org.topupbatch.settings.BalancePolicy;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.EarlierOrder;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRoute;
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
 *
 * <p>Repeats (topup.repeat-window, docs/batch-files-and-reports.md#rejected-rows, docs/money-guards.md): a row otherwise
 * fit to order whose product and customer ({@link RepeatKey}) an order of an earlier batch sent
 * within the window already has, delivered, is rejected naming that order's ref_id, unless its
 * allow_repeat column says yes. When that order (or an earlier accepted row of this file) is still
 * in flight, the row is recorded WAITING for it: a failed order is no repeat, so only its outcome
 * decides (journal {@code RepeatWaits}). The chunk's keys are asked of the writer in one look-up, as
 * its ref_ids are. A zero window turns the guard off (in-file repeats included).
 */
public final class BatchPlanner {

    /** Rows read ahead and checked against the journal together (the journal writer sends as many at once). */
    static final int CHUNK = 1_000;
    /** Characters of rows read ahead at most: wide rows make smaller chunks, so memory stays flat. */
    static final long CHUNK_CHARS = 2_000_000;

    /** The extra column that lets a row repeat an earlier order (docs/batch-files-and-reports.md#input-file). */
    public static final String ALLOW_REPEAT = "allow_repeat";

    private final RowValidator validator;
    private final BalancePolicy policy;
    private final Duration repeatWindow;
    private final Clock clock;

    /** Without the repeat guard. */
    public BatchPlanner(RowValidator validator, BalancePolicy policy) {
        this(validator, policy, Duration.ZERO, Clock.systemUTC());
    }

    public BatchPlanner(RowValidator validator, BalancePolicy policy, Duration repeatWindow, Clock clock) {
        this.validator = validator;
        this.policy = policy;
        this.repeatWindow = repeatWindow;
        this.clock = clock;
    }

    private RowRouter router;
    /** A ref_id of the form a row's fallback ref_id takes (FallbackRefIds): kept free for those. */
    private static final java.util.regex.Pattern FALLBACK_LIKE = java.util.regex.Pattern.compile(".*-F[0-9]+");

    /** Each accepted row is routed, at its first account's price; one no account takes is rejected (RowRouter). */
    BatchPlanner routedBy(RowRouter router) {
        this.router = router;
        return this;
    }


    /**
     * The first row with a ref_id counts, even a rejected one (docs/batch-files-and-reports.md#rejected-rows); a ref_id an
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

        /** After {@link #decided} without a rejection: the row repeats an order in flight and waits for it ({@code message}). */
        default void waits(BatchRow row, String message) {
        }
    }

    public PlanSummary plan(CsvBatchReader reader, BatchWriter writer, long balance) {
        return plan(reader, writer, balance, RowListener.NONE);
    }

    public PlanSummary plan(CsvBatchReader reader, BatchWriter writer, long balance, RowListener listener) {
        int rows = 0;
        int accepted = 0;
        long total = 0;
        List<BatchRow> chunk = new ArrayList<>(CHUNK);
        boolean guard = !repeatWindow.isZero();
        long windowStart = clock.millis() - repeatWindow.toMillis();
        int allowColumn = allowRepeatColumn(reader.extraHeaders());
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
            // each row's repeat key made once: looked up for the chunk here, recorded with the row below
            List<String> keys = chunk.stream().map(validator::repeatKey).toList();
            if (guard) {
                // one look-up for the chunk's repeat keys too (rows that may repeat leave theirs out)
                List<String> asked = new ArrayList<>(keys.size());
                for (int i = 0; i < chunk.size(); i++) {
                    if (keys.get(i) != null && !allowsRepeat(chunk.get(i), allowColumn)) {
                        asked.add(keys.get(i));
                    }
                }
                writer.expectRepeats(asked, windowStart);
            }
            for (int i = 0; i < chunk.size(); i++) {
                BatchRow row = chunk.get(i);
                rows++;
                EarlierOrder[] inFlight = {null};
                RowValidator.Repeats repeats = !guard || allowsRepeat(row, allowColumn) ? RowValidator.Repeats.NONE
                        : key -> {
                            EarlierOrder earlier = writer.earlierOrder(key, windowStart);
                            if (earlier != null && !earlier.succeeded()) {
                                inFlight[0] = earlier; // no repeat yet: its outcome decides
                                return null;
                            }
                            return earlier == null ? null : earlier.rejection();
                        };
                RowDecision decision = validator.validateAgainst(row, ref -> refIdConflict(writer, ref), keys.get(i), repeats);
                String reason = decision.reason();
                long price = decision.accepted() ? decision.price() : 0;
                RowRouter.Routed routed = null;
                if (reason == null && router != null && router.namesAccounts() && FALLBACK_LIKE.matcher(row.refId()).matches()) {
                    // its own order could meet another row's order at an account under the same ref_id
                    reason = "ref_id " + row.refId() + " ends like the ref_ids a row gets at its next account (-F2, -F3...);"
                            + " with several accounts give it another ref_id";
                }
                if (reason == null && router != null) {
                    routed = router.route(row.productSku(), decision.maxPrice());
                    reason = routed.refusal();
                    price = routed.price();
                }
                if (reason == null && policy == BalancePolicy.BEST_EFFORT && total + price > balance) {
                    reason = "insufficient balance: price " + price + ", " + Math.max(0, balance - total)
                            + " left of " + balance + " for this batch";
                }
                listener.decided(row, decision, reason);
                if (reason == null) {
                    accepted++;
                    total += price; // a waiting row may be ordered yet: its price stays set aside
                    RowRoute route = routed == null ? null : routed.route();
                    EarlierOrder earlier = inFlight[0];
                    if (earlier == null) {
                        writer.add(newRow(row, decision, RowState.ACCEPTED, price, null, route, null));
                    } else {
                        listener.waits(row, earlier.waiting());
                        writer.add(newRow(row, decision, RowState.WAITING, price, earlier.waiting(), route, earlier.waitFor()));
                    }
                } else {
                    writer.add(newRow(row, decision, RowState.REJECTED, null, reason, null, null));
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

    private static NewRow newRow(BatchRow row, RowDecision decision, RowState state, Long price, String message,
                                 RowRoute route, String waitsFor) {
        return new NewRow(row.seq(), row.line(), row.refId(), row.productSku(), row.customerNo(),
                row.customerNoZone().isEmpty() ? null : row.customerNoZone(), decision.maxPrice(),
                row.extras(), state, price, message, state != RowState.REJECTED ? decision.repeatKey() : null, route, waitsFor,
                state != RowState.REJECTED && !row.notifyTo().isEmpty() ? NotifyAddress.normalized(row.notifyTo()) : null);
    }

    /** The index among the extras of the allow_repeat column (header matched like the known ones), or -1. */
    static int allowRepeatColumn(List<String> extraHeaders) {
        for (int i = 0; i < extraHeaders.size(); i++) {
            if (extraHeaders.get(i).trim().equalsIgnoreCase(ALLOW_REPEAT)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean allowsRepeat(BatchRow row, int allowColumn) {
        return allowColumn >= 0 && allowColumn < row.extras().size() && RepeatKey.allowed(row.extras().get(allowColumn));
    }
}
