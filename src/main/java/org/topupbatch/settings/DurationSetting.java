package org.topupbatch.settings;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads sizes of time as operators write them: {@code 500ms}, {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}. */
public final class DurationSetting {

    private static final Pattern FORM = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h|d)");

    private DurationSetting() {
    }

    public static Duration parse(String key, String value) {
        if (value == null) {
            throw new SettingsException(key + ": missing value (write a time such as 90s, 30m or 2h)");
        }
        Matcher m = FORM.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new SettingsException(key + ": '" + value + "' is not a time such as 90s, 30m or 2h");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }
}
