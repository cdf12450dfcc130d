package org.topupbatch.settings;

import java.util.Locale;
import java.util.Optional;

/** What to do when a batch costs more than the balance (docs/settings.md#settings: topup.balance-policy). */
public enum BalancePolicy {
    BEST_EFFORT, ALL_OR_NOTHING;

    public static Optional<BalancePolicy> parse(String word) {
        if (word == null) {
            return Optional.empty();
        }
        return switch (word.trim().toLowerCase(Locale.ROOT)) {
            case "best-effort" -> Optional.of(BEST_EFFORT);
            case "all-or-nothing" -> Optional.of(ALL_OR_NOTHING);
            default -> Optional.empty();
        };
    }
}
