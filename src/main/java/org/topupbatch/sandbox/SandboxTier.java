package org.topupbatch.sandbox;

import java.util.Locale;

/** Reseller tiers with their limits and price factor, as docs/provider-client.md fixes them. */
public enum SandboxTier {
    BASIC(60, 10_000, 100),
    SILVER(120, 50_000, 98),
    GOLD(300, 200_000, 95);

    private final int limitPerMinute;
    private final long limitPerDay;
    private final int pricePercent;

    SandboxTier(int limitPerMinute, long limitPerDay, int pricePercent) {
        this.limitPerMinute = limitPerMinute;
        this.limitPerDay = limitPerDay;
        this.pricePercent = pricePercent;
    }

    public int limitPerMinute() {
        return limitPerMinute;
    }

    public long limitPerDay() {
        return limitPerDay;
    }

    /** The tier's price for a basic price: rounded down to the rupiah, in integer arithmetic (no floating point for money). */
    public long priceOf(long basicPrice) {
        return basicPrice * pricePercent / 100;
    }

    /** The lower-case word used on the wire and in settings. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SandboxTier parse(String text) {
        for (SandboxTier tier : values()) {
            if (tier.wireName().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return tier;
            }
        }
        throw new IllegalArgumentException("expected basic, silver or gold");
    }
}
