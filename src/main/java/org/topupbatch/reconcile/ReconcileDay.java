package org.topupbatch.reconcile;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

/** A calendar day of the business zone (an accountant's day), from its midnight to the next. */
public record ReconcileDay(LocalDate day, ZoneId zone) {

    /** Thrown for a DAY argument that is no day, or one that has not begun yet. */
    public static final class BadDayException extends IllegalArgumentException {
        BadDayException(String message) {
            super(message);
        }
    }

    /** {@code text} as {@code YYYY-MM-DD}; null or empty: yesterday in {@code zone}. */
    public static ReconcileDay parse(String text, ZoneId zone, Clock clock) {
        LocalDate today = LocalDate.ofInstant(clock.instant(), zone);
        if (text == null || text.isBlank()) {
            return new ReconcileDay(today.minusDays(1), zone);
        }
        LocalDate day;
        try {
            day = LocalDate.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new BadDayException("'" + text.trim() + "' is not a day: give it as YYYY-MM-DD, e.g. " + today.minusDays(1));
        }
        if (day.isAfter(today)) {
            throw new BadDayException(day + " has not begun yet in " + zone + " (today is " + today + ")");
        }
        return new ReconcileDay(day, zone);
    }

    public Instant start() {
        return day.atStartOfDay(zone).toInstant();
    }

    public Instant end() {
        return day.plusDays(1).atStartOfDay(zone).toInstant();
    }

    public boolean contains(Instant at) {
        return at != null && !at.isBefore(start()) && at.isBefore(end());
    }

    @Override
    public String toString() {
        return day.toString();
    }
}
