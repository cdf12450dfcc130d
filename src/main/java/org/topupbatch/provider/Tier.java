package org.topupbatch.provider;

import java.util.Locale;
import java.util.Optional;

/** Reseller tiers and the request rate each one allows (docs/provider.md, limits). */
public enum Tier {
    BASIC(60), SILVER(120), GOLD(300);

    private final int requestsPerMinute;

    Tier(int requestsPerMinute) {
        this.requestsPerMinute = requestsPerMinute;
    }

    public int requestsPerMinute() {
        return requestsPerMinute;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Tier> parse(String word) {
        if (word == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(valueOf(word.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
