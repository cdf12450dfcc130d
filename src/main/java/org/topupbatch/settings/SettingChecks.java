package org.topupbatch.settings;

import java.net.URI;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.quartz.CronExpression;

/** The checks the groups' {@link Setting} declarations share; each refuses a bad value in one line naming its key. */
final class SettingChecks {

    private SettingChecks() {
    }

    static String text(String key, String written) {
        return written;
    }

    static Path folder(String key, String written) {
        try {
            return Path.of(written);
        } catch (InvalidPathException e) {
            throw new SettingsException(key + ": '" + written + "' is not a usable folder name");
        }
    }

    static Setting.Check<Integer> integer(int min, int max) {
        return (key, v) -> {
            try {
                int n = Integer.parseInt(v);
                if (n < min || n > max) {
                    throw new SettingsException(key + ": " + n + " is outside " + min + ".." + max);
                }
                return n;
            } catch (NumberFormatException e) {
                throw new SettingsException(key + ": '" + v + "' is not a whole number");
            }
        };
    }

    static Setting.Check<Integer> port() {
        return integer(0, 65535);
    }

    static Setting.Check<Duration> duration(Duration min) {
        return (key, raw) -> {
            Duration d = DurationSetting.parse(key, raw);
            if (d.compareTo(min) < 0) {
                throw new SettingsException(key + ": '" + raw + "' is too short (at least " + min.toMillis() + "ms)");
            }
            return d;
        };
    }

    /** A charset name Java knows, or {@code auto}: null. */
    static Charset charset(String key, String v) {
        if (v.equalsIgnoreCase("auto")) {
            return null;
        }
        try {
            return Charset.forName(v);
        } catch (IllegalArgumentException e) {
            throw new SettingsException(key + ": '" + v + "' is not a character set this Java knows"
                    + " (use auto, UTF-8, UTF-16LE, UTF-16BE or windows-1252)");
        }
    }

    /** An http(s) address, without a trailing slash. */
    static String url(String key, String value) {
        try {
            URI uri = URI.create(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new SettingsException(key + ": '" + value + "' is not an http:// or https:// address");
            }
        } catch (IllegalArgumentException e) {
            throw new SettingsException(key + ": '" + value + "' is not an http:// or https:// address");
        }
        return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }

    /** A cron in Unix (five fields) or Quartz form, returned in Quartz form; {@code example} ends the refusal. */
    static Setting.Check<String> cron(String example) {
        return (key, v) -> {
            String quartz = toQuartzCron(v);
            if (!CronExpression.isValidExpression(quartz)) {
                throw new SettingsException(key + ": '" + v + "' is not a cron expression (" + example + ")");
            }
            return quartz;
        };
    }

    /**
     * Turns a five-field Unix cron into Quartz's form, which has seconds, a '?' day field and
     * numbers its weekdays from 1 = Sunday (Unix: 0 or 7 = Sunday).
     */
    static String toQuartzCron(String cron) {
        String[] f = cron.trim().split("\\s+");
        if (f.length == 5) {
            String dom = f[2];
            String dow = java.util.regex.Pattern.compile("(?<!/)\\d+").matcher(f[4])
                    .replaceAll(m -> Integer.toString(Integer.parseInt(m.group()) % 7 + 1));
            if (dow.equals("*")) {
                dow = "?";
            } else if (dom.equals("*")) {
                dom = "?";
            }
            return String.join(" ", "0", f[0], f[1], dom, f[3], dow);
        }
        return String.join(" ", f);
    }
}
