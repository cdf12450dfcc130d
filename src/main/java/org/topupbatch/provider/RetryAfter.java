package org.topupbatch.provider;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Reads a Retry-After header: delta seconds (RFC 9110) or an HTTP date. */
final class RetryAfter {

    private RetryAfter() {
    }

    /** Seconds to wait, never negative; null when the header is absent or unreadable. */
    static Long seconds(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.trim();
        try {
            return Math.max(0L, Long.parseLong(value));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant when = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                long seconds = Duration.between(Instant.now(), when).toSeconds();
                return Math.max(0L, seconds);
            } catch (DateTimeParseException notDate) {
                return null;
            }
        }
    }
}
