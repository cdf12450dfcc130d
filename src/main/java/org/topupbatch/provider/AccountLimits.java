package org.topupbatch.provider;

import java.time.Instant;

/**
 * The account's request limits as learned from the provider at {@code learnedAt}: per rolling
 * minute, per UTC day, and how much of that day the provider had counted then.
 */
public record AccountLimits(int perMinute, long perDay, long usedToday, Instant learnedAt) {
}
