package org.topupbatch.provider;

/** The profile's api_usage object (interface 2.5). */
public record ApiUsage(long today, long thisMonth, int limitPerMinute, long limitPerDay) {
}
