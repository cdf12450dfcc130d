package org.topupbatch.intake;

import java.util.List;

/**
 * The verdict on one row: accepted at {@code price} (the price list's price now), or rejected
 * for {@code reason}. {@code maxPrice} is the row's max_price when it is a valid number, else null.
 * {@code warnings} are doubts about the customer fields of a row that is sent anyway (the provider
 * decides); {@code plan} shows them.
 */
public record RowDecision(boolean accepted, Long price, Long maxPrice, String reason, List<String> warnings,
                          String repeatKey) {

    public RowDecision {
        warnings = List.copyOf(warnings);
    }

    public RowDecision(boolean accepted, Long price, Long maxPrice, String reason, List<String> warnings) {
        this(accepted, price, maxPrice, reason, warnings, null);
    }

    /** The same verdict, with the key the repeat guard records for an accepted row ({@link RepeatKey}). */
    RowDecision withRepeatKey(String key) {
        return new RowDecision(accepted, price, maxPrice, reason, warnings, key);
    }

    public static RowDecision accept(long price, Long maxPrice) {
        return accept(price, maxPrice, List.of());
    }

    public static RowDecision accept(long price, Long maxPrice, List<String> warnings) {
        return new RowDecision(true, price, maxPrice, null, warnings);
    }

    public static RowDecision reject(String reason, Long maxPrice) {
        return new RowDecision(false, null, maxPrice, reason, List.of());
    }
}
