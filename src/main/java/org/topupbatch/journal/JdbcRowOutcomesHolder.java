package org.topupbatch.journal;

import java.time.Instant;

/**
 * What the submission and the tracking roles share: both record a row's outcome, and both do it
 * through the one {@link JdbcRowOutcomes}, so that a row turns final by one guarded statement
 * whichever of them learns the outcome first.
 */
abstract class JdbcRowOutcomesHolder implements RowOutcomes {

    private final RowOutcomes outcomes;

    JdbcRowOutcomesHolder(RowOutcomes outcomes) {
        this.outcomes = outcomes;
    }

    @Override
    public boolean recordOutcome(long rowId, RowState state, String serialNumber, Long price, String message) {
        return outcomes.recordOutcome(rowId, state, serialNumber, price, message);
    }

    @Override
    public boolean requeueNeverTaken(long rowId) {
        return outcomes.requeueNeverTaken(rowId);
    }

    @Override
    public boolean rejectNeverTaken(long rowId, String message) {
        return outcomes.rejectNeverTaken(rowId, message);
    }

    @Override
    public void scheduleCheck(long rowId, Instant nextCheckAt, int checks) {
        outcomes.scheduleCheck(rowId, nextCheckAt, checks);
    }

    @Override
    public void scheduleFirstCheck(long rowId, Instant nextCheckAt) {
        outcomes.scheduleFirstCheck(rowId, nextCheckAt);
    }
}
