package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What reconciliation with the provider reads from the journal and writes into it (docs/reconcile.md#reconcile-with-the-provider): the orders a day sent, one order by its ref_id, the provider's
 * truth about an order whose final status differs, and the result of each run.
 */
public interface ReconcileJournal {

    /** An order of the journal with the name of its batch's file. */
    record JournalOrder(RowRecord row, String batchFile) {
    }

    /**
     * A reconciliation run, as status, the dashboard and the metrics show the last one. With several
     * accounts the figures are the accounts' together and {@code accounts} has each account's part in
     * one line, in the order of topup.providers; empty with one account.
     */
    record Reconciliation(String day, String zone, Instant ranAt, long providerOrders, long journalOrders, long matched,
                          Map<String, Long> exceptions, long exceptionCount, Long unexplained, String summaryFile,
                          Map<String, String> accounts) {

        /** A single account's run. */
        public Reconciliation(String day, String zone, Instant ranAt, long providerOrders, long journalOrders, long matched,
                              Map<String, Long> exceptions, long exceptionCount, Long unexplained, String summaryFile) {
            this(day, zone, ranAt, providerOrders, journalOrders, matched, exceptions, exceptionCount, unexplained,
                    summaryFile, Map.of());
        }
    }

    /**
     * Rows that are orders (sent: SENDING, PENDING, SUCCESS, FAILED, UNKNOWN; not REFUSED, which the
     * provider never took) whose request left in [{@code from}, {@code to}), by time sent.
     */
    List<JournalOrder> ordersSentBetween(Instant from, Instant to);

    /** The order row holding {@code refId} whose request has left, if any (in any state). */
    Optional<JournalOrder> orderByRef(String refId);

    /**
     * The provider shows a final status other than the journal's final one (SUCCESS, FAILED, or REFUSED
     * or REJECTED for an order the provider did take after all): the row takes it, with {@code message}
     * saying what changed, and {@code at} as the time the difference was found. False when the row is
     * not in such a state, or holds no ref_id.
     */
    boolean correctOutcome(long rowId, RowState state, String serialNumber, Long price, String message, Instant at);

    default void recordReconciliation(Reconciliation run) {
        recordReconciliation(run, List.of());
    }

    /**
     * Records the run and the {@code notices} it calls for ({@code reconcile_exceptions}) in the outbox,
     * in one transaction: a crash keeps both or neither.
     */
    void recordReconciliation(Reconciliation run, List<Outbox.OutgoingMessage> notices);

    /**
     * A balance the provider told (check-balance, profile): {@code askedAt} when the request left,
     * {@code answeredAt} when the answer came back; the balance holds every order the provider made
     * before the one and none it made after the other. {@code account}: null with one account.
     */
    record BalanceReading(String account, long balance, Instant askedAt, Instant answeredAt) {
    }

    /** Keeps a balance reading, for the reconciliation of its day. */
    void recordBalanceReading(BalanceReading reading);

    /**
     * The readings of {@code account} (null: the single account) answered in [{@code from}, {@code to}),
     * oldest first, at most {@code limit}.
     */
    List<BalanceReading> balanceReadings(String account, Instant from, Instant to, int limit);

    Optional<Reconciliation> lastReconciliation();
}
