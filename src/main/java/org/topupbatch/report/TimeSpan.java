package org.topupbatch.report;

import java.time.Duration;

/** A span of time as an operator reads it at a glance: {@code 45 s}, {@code 12 min}, {@code 2 h 5 min}. */
public final class TimeSpan {

    private TimeSpan() {
    }

    public static String minutes(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return (s + 59) / 60 + " min";
        }
        return s / 3600 + " h " + (s % 3600 + 59) / 60 + " min";
    }
}
