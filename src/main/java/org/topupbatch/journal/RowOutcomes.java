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
}
