package org.topupbatch.testing;

import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A business zone (topup.business-zone) in which it is now about noon, for end-to-end tests that
 * reconcile "today" or "yesterday" with the built jar: in Asia/Jakarta the day turns at 17:00 UTC,
 * and a test running then would compute one day while the product, a moment later, closes another.
 * In this zone the day cannot turn for at least eleven hours. Unit tests inject a clock instead.
 */
public final class AwayFromMidnight {

    private AwayFromMidnight() {
    }

    /**
     * A whole-hour zone (UTC-11 to UTC+12) where the local time is now between 12:00 and 13:00, named
     * as the tz database names fixed offsets ({@code Etc/GMT-5} is UTC+5: the sign is POSIX's), so that
     * java.util.TimeZone (a cron's zone) knows it as well as java.time does.
     */
    public static ZoneId zone() {
        int hours = 12 - OffsetDateTime.now(ZoneOffset.UTC).getHour();
        return ZoneId.of(hours == 0 ? "Etc/GMT" : "Etc/GMT" + (hours > 0 ? "-" + hours : "+" + -hours));
    }
}
