package org.topupbatch.journal;

import java.time.Instant;

/** What both submission and tracking write about a sent row: the provider's word, and when to look again. */
public interface RowOutcomes {

    /**
     * Records what the provider said (or did not say) about a row's order: the new state with
     * serial, price and message. Fields given as null keep their stored value. A row in a final
     * state is never changed (returns false), so a late or repeated answer does no harm.
     */
    boolean recordOutcome(long rowId, RowState state, String serialNumber, Long price, String message);

    /** Plans the next status look-up of a row. */
    void scheduleCheck(long rowId, Instant nextCheckAt, int checks);

    /**
     * Plans the first look-up of an order its create-order answer left pending, unless a webhook's hint
     * arrived while that create-order was on its way and planned a look-up already (a check counted):
     * the hinted look-up stands, which the answer's later schedule would otherwise put off.
     */
    void scheduleFirstCheck(long rowId, Instant nextCheckAt);

    /**
     * An order of unknown outcome that the provider has proven it never took, of a batch the operator
     * cancelled: REJECTED with {@code message} instead of being sent again. Its ref_id stays with the
     * row (so that nothing else takes it), its repeat key is freed. False when the row is no longer UNKNOWN.
     */
    boolean rejectNeverTaken(long rowId, String message);

    /**
     * An order of unknown outcome that the provider has proven it never took, of a batch the operator
     * holds: ACCEPTED again, a queued row of the held batch, sent (under the same ref_id) only after
     * resume. False when the row is no longer UNKNOWN (or this journal cannot tell).
     */
    default boolean requeueNeverTaken(long rowId) {
        return false;
    }
}
