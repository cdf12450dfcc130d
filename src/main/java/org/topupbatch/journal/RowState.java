package org.topupbatch.journal;

/**
 * Where a batch row stands. The journal is the source of truth: after a crash, each row's
 * state alone says what to do next.
 *
 * <pre>
 * ACCEPTED -> SENDING -> SUCCESS | PENDING | FAILED | UNKNOWN
 * PENDING  -> SUCCESS | FAILED
 * UNKNOWN  -> SUCCESS | PENDING | FAILED   (only on the provider's own word)
 * REJECTED    never sent
 * WAITING  -> ACCEPTED | REJECTED      (the repeat guard: see below)
 * </pre>
 *
 * A SENDING row found at start-up is UNKNOWN: its request may or may not have reached the provider.
 * REFUSED is a row the provider answered with an error at creation, so no order exists: it is
 * reported as {@code failed} with the provider's message and no price.
 *
 * <p>WAITING is a row that repeats an order still in flight (docs/batch-files-and-reports.md#rejected-rows): it is not
 * sent (the queue takes ACCEPTED rows only) until that order is final, then it becomes ACCEPTED
 * when the earlier order failed, or REJECTED as a repeat when it succeeded ({@link RepeatWaits}).
 */
public enum RowState {
    ACCEPTED, REJECTED, SENDING, PENDING, SUCCESS, FAILED, REFUSED, UNKNOWN, WAITING;

    /** True when nothing more will happen to the row. */
    public boolean isFinal() {
        return this == REJECTED || this == SUCCESS || this == FAILED || this == REFUSED;
    }

    /** True when an order may exist at the provider and its final status is still to learn. */
    public boolean needsTracking() {
        return this == PENDING || this == UNKNOWN;
    }
}
