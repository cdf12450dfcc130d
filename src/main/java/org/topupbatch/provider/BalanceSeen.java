package org.topupbatch.provider;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The balance as of the latest provider answer that carried one: check-balance, profile, and
 * create-order's {@code balance_after}. It costs no call of its own. Check-order and history
 * answers are left out: their balances are as at the order's creation, not as of the answer.
 */
public final class BalanceSeen {

    /** A balance and when the answer carrying it came back. */
    public record Reading(long balance, Instant at) {
    }

    private final Clock clock;
    private volatile Reading last;

    public BalanceSeen(Clock clock) {
        this.clock = clock;
    }

    public Optional<Reading> last() {
        return Optional.ofNullable(last);
    }

    /** Learns from a typed answer of {@code operation}; answers without a balance change nothing. */
    void answered(String operation, Object answer) {
        Long balance = switch (operation) {
            case ProviderClient.CHECK_BALANCE -> answer instanceof Balance b ? b.balance() : null;
            case ProviderClient.PROFILE -> answer instanceof Profile p ? p.balance() : null;
            case ProviderClient.CREATE_ORDER -> answer instanceof Order o ? o.balanceAfter() : null;
            default -> null;
        };
        if (balance != null) {
            last = new Reading(balance, clock.instant());
        }
    }
}
