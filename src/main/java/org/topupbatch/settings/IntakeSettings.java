package org.topupbatch.settings;

import java.util.List;
import java.util.function.Function;

/**
 * The HTTP door for ERPs on the management port (docs/erp-doors.md#the-http-door-for-erps).
 *
 * @param token the management port's bearer token; null: none (required beyond loopback). Never shown
 */
public record IntakeSettings(String token, long maxBytes) {

    static final Setting<String> TOKEN = Setting.of("topup.intake.token", null,
            "the bearer token of the management port", SettingChecks::text);
    static final Setting<Integer> MAX_BYTES = Setting.of("topup.intake.max-bytes", "52428800",
            "the largest batch file the HTTP door takes", SettingChecks.integer(1_024, Integer.MAX_VALUE));

    static final List<Setting<?>> DECLARED = List.of(TOKEN, MAX_BYTES);

    static IntakeSettings load(Function<String, String> lookup) {
        return new IntakeSettings(TOKEN.read(lookup), MAX_BYTES.read(lookup));
    }

    @Override
    public String toString() {
        return "IntakeSettings[token=" + (token == null ? "none" : "***") + ", maxBytes=" + maxBytes + "]";
    }
}
