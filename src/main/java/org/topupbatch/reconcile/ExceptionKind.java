package org.topupbatch.reconcile;

import java.util.Locale;

/** What kind of difference between the provider and the journal a line of the reconciliation lists. */
public enum ExceptionKind {
    /** At the provider, never sent by this installation (another client on the account, a leaked key). */
    UNKNOWN_TO_JOURNAL,
    /** Sent according to the journal, absent from the provider's history. */
    MISSING_AT_PROVIDER,
    /** The statuses differ: the provider's final status is not the journal's. */
    STATUS_DIFFERS,
    /** Both charged, at different prices. */
    PRICE_DIFFERS,
    /** Still pending at the provider past the pending timeout. */
    PENDING_TOO_LONG;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
