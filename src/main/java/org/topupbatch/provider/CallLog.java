package org.topupbatch.provider;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The journal's record of provider calls and of the account's limits: what the rate budget needs
 * to judge its window correctly from the first second after a restart.
 * Every method commits before it returns.
 */
public interface CallLog {

    /**
     * Records a call whose slot was just reserved; committed before it returns, so before the
     * request can leave. Returns the id {@link #completeCall} takes.
     */
    long reserveCall(Instant reservedAt, String operation);

    /** Records that a reserved call ended: when, and its HTTP status (0 when no answer came). */
    void completeCall(long callId, Instant answeredAt, int httpStatus);

    /** Calls reserved at or after {@code since}, completed or not, oldest first. */
    List<ProviderCall> callsSince(Instant since);

    /** How many calls were reserved at or after {@code since}. */
    long countCallsSince(Instant since);

    /** Forgets calls reserved before {@code before}. */
    void pruneCalls(Instant before);

    /** Remembers the account's limits, replacing those remembered before. */
    void rememberLimits(AccountLimits limits);

    /** The limits last remembered, if any were. */
    Optional<AccountLimits> rememberedLimits();
}
