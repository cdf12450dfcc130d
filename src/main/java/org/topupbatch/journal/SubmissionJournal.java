package org.topupbatch.journal;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The journal as submission sees it: accepted rows waiting in order, taken one by one, answered. */
public interface SubmissionJournal extends RowOutcomes {

    /**
     * ACCEPTED rows of batches that are not halted, at most {@code limit}: with several batches
     * active, an equal share of each, taken in turn, each in file order; rows of a held product ({@link ProductOutages}) and of batches an
     * operator holds or cancelled ({@link BatchControl}) wait.
     */
    List<RowRecord> nextToSubmit(int limit);

    /**
     * Several accounts on two nodes (docs/two-nodes.md#two-nodes): as {@link #nextToSubmit(int)}, only the rows in
     * {@code scope} (at the accounts this node leads, and on the active node the rows of no account of this run).
     */
    List<RowRecord> nextToSubmitAt(int limit, AccountScope scope);

    /** Rows not final, routed before the journal kept each row's account (V20), get it from their route; returns how many. */
    int fillRowAccounts();

    /**
     * ACCEPTED -> SENDING, committed; false when the row was not ACCEPTED any more, or its batch is
     * held or cancelled by an operator.
     */
    boolean markSending(long rowId, Instant at);

    /**
     * ACCEPTED -> SENDING as {@link #markSending(long, Instant)}, only while the row is still at
     * {@code attempt} (several accounts: a row moved to its next account meanwhile is not sent with the
     * old account's ref_id and SKU).
     */
    boolean markSending(long rowId, int attempt, Instant at);

    /**
     * SENDING -> ACCEPTED, for a request that certainly never reached the provider (the connection
     * was refused, or the provider refused the credentials); false when the row was not SENDING.
     */
    boolean returnToQueue(long rowId);

    /**
     * SENDING -> ACCEPTED at the row's next account (several accounts): its account at {@code attempt}
     * refused its request in a way that proves it took no order. The row goes out again under the next
     * account's ref_id, at {@code price} (the next account's when the row was accepted), with the refusal
     * as its message until it is answered. False when the row is no longer SENDING at that attempt (a
     * node that took over made it UNKNOWN meanwhile: then it stays where it is and is looked up).
     */
    boolean fallBack(long rowId, int attempt, long price, String message);

    /**
     * ACCEPTED -> ACCEPTED at the row's next account, for a row never sent at {@code attempt} (its account
     * just refused its product or cannot be asked). False when the row is no longer ACCEPTED at that attempt.
     */
    boolean moveOnUnsent(long rowId, int attempt, long price, String message);

    /**
     * ACCEPTED -> REJECTED with the message, for a row that will never be sent (its price rose too
     * far); committed. Its ref_id is free again. False when the row was not ACCEPTED any more.
     */
    boolean rejectUnsent(long rowId, String message);

    /** Stops submission of a batch; its ACCEPTED rows stay as they are. Idempotent. */
    default void haltBatch(long batchId, String reason) {
        haltBatch(batchId, reason, List.of());
    }

    /**
     * Stops submission of a batch, and records the {@code notices} of the stop in the outbox in the
     * same transaction, so a crash keeps both or neither. Only the first stop counts: false (and no
     * notice) when the batch was stopped already.
     */
    boolean haltBatch(long batchId, String reason, List<Outbox.OutgoingMessage> notices);

    /** Records the balance read just before the batch's first order, once (later calls keep the first). */
    void recordSubmitStart(long batchId, long balanceBefore, Instant at);

    Optional<BatchRecord> batch(long batchId);

    /** Every row in one of the given states (e.g. SENDING: requests on the wire), oldest first. */
    List<RowRecord> rowsInState(Collection<RowState> states, int limit);
}
