package org.topupbatch.settings;

import java.nio.charset.Charset;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * How batches are picked up from the inbox: watched or once, on a schedule or continuously, and
 * in which encoding they are read.
 *
 * @param schedule      Quartz form; null: continuously
 * @param inputCharset  null: auto (a byte-order mark, else UTF-8, else windows-1252)
 */
public record PickUpSettings(Mode mode, String schedule, Charset inputCharset) {

    public enum Mode { WATCH, ONCE }

    static final Setting<PickUpSettings.Mode> MODE = Setting.of("topup.mode", "watch",
            "watch: keep watching the inbox; once: process the files present at start", PickUpSettings::mode);
    static final Setting<String> SCHEDULE = Setting.of("topup.schedule", null,
            "a cron expression; when set (watch mode), the inbox is picked up on that schedule",
            SettingChecks.cron("e.g. '0 2 * * *' for 02:00 every night"));
    static final Setting<Charset> INPUT_CHARSET = Setting.of("topup.input-charset", "auto",
            "the encoding of batch files", SettingChecks::charset);

    static final List<Setting<?>> DECLARED = List.of(MODE, SCHEDULE, INPUT_CHARSET);

    static PickUpSettings load(Function<String, String> lookup) {
        return new PickUpSettings(MODE.read(lookup), SCHEDULE.read(lookup), INPUT_CHARSET.read(lookup));
    }

    private static PickUpSettings.Mode mode(String key, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "watch" -> PickUpSettings.Mode.WATCH;
            case "once" -> PickUpSettings.Mode.ONCE;
            default -> throw new SettingsException(key + ": '" + v + "' is neither watch nor once");
        };
    }
}
