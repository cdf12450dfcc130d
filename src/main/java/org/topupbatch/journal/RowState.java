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
 * </pre>
 *
 * A SENDING row found at start-up is UNKNOWN: its request may or may not have reached the provider.
 * REFUSED is a row the provider answered with an error at creation, so no order exists: it is
 * reported as {@code failed} with the provider's message and no price.
 */
public enum RowState {
    ACCEPTED, REJECTED, SENDING, PENDING, SUCCESS, FAILED, REFUSED, UNKNOWN;

    /** True when nothing more will happen to the row. */
    public boolean isFinal() {
        return this == REJECTED || this == SUCCESS || this == FAILED || this == REFUSED;
    }

    /** True when an order may exist at the provider and its final status is still to learn. */
    public boolean needsTracking() {
        return this == PENDING || this == UNKNOWN;
    }
}
