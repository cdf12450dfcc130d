package org.topupbatch.provider;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The balance as of the latest provider answer that carried one: check-balance, profile, and
 * create-order's {@code balance_after}. It costs no call of its own. Check-order and history
 * answers are left out: their balances are as at the order's creation, not as of the answer.
 *
 * <p>A check-balance or profile answer is also a reading at a known moment: it holds every order the
 * provider made before the request left and none made after the answer came. Those are told to the
 * {@link ReadingListener} (the service journals them, for reconciliation: docs/reconcile.md).
 */
public final class BalanceSeen {

    /** A balance and when the answer carrying it came back. */
    public record Reading(long balance, Instant at) {
    }

    /** Told of each balance read at a known moment, between {@code askedAt} and {@code answeredAt}. */
    @FunctionalInterface
    public interface ReadingListener {
        void read(long balance, Instant askedAt, Instant answeredAt);
    }

    private final Clock clock;
    private volatile Reading last;
    private volatile ReadingListener listener = (balance, askedAt, answeredAt) -> { };

    public BalanceSeen(Clock clock) {
        this.clock = clock;
    }

    public Optional<Reading> last() {
        return Optional.ofNullable(last);
    }

    /** Who is told of each check-balance or profile reading from now on (one listener; the last set wins). */
    public void onReading(ReadingListener listener) {
        this.listener = listener;
    }

    /** Learns from a typed answer of {@code operation}; answers without a balance change nothing. */
    void answered(String operation, Object answer) {
        answered(operation, answer, null);
    }

    /**
     * As {@link #answered(String, Object)}; {@code sinceLeft}, how long ago the request left (null when
     * not known), makes a check-balance or profile answer a reading for the listener.
     */
    void answered(String operation, Object answer, Duration sinceLeft) {
        Long balance = switch (operation) {
            case ProviderClient.CHECK_BALANCE -> answer instanceof Balance b ? b.balance() : null;
            case ProviderClient.PROFILE -> answer instanceof Profile p ? p.balance() : null;
            case ProviderClient.CREATE_ORDER -> answer instanceof Order o ? o.balanceAfter() : null;
            default -> null;
        };
        if (balance == null) {
            return;
        }
        Instant now = clock.instant();
        last = new Reading(balance, now);
        if (sinceLeft != null && !ProviderClient.CREATE_ORDER.equals(operation)) {
            listener.read(balance, now.minus(sinceLeft), now);
        }
    }
}
