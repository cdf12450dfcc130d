package org.topupbatch.settings;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.function.Function;

/**
 * The accountant's days and when the service reconciles them by itself.
 *
 * @param schedule Quartz form, read in businessZone; null: the daily reconciliation is off
 */
public record ReconcileSettings(ZoneId businessZone, String schedule) {

    static final Setting<ZoneId> BUSINESS_ZONE = Setting.of("topup.business-zone", "Asia/Jakarta",
            "the time zone of the accountant's days", ReconcileSettings::zone);
    static final Setting<String> SCHEDULE = Setting.of("topup.reconcile.schedule", "30 0 * * *",
            "when the service (watch mode, on the active node) reconciles yesterday by itself",
            SettingChecks.cron("e.g. '30 0 * * *' for 00:30 every day; empty turns it off"));

    static final List<Setting<?>> DECLARED = List.of(BUSINESS_ZONE, SCHEDULE);

    static ReconcileSettings load(Function<String, String> lookup) {
        // unlike other keys, an empty schedule is not the default: it turns the daily reconciliation off
        String written = lookup.apply(SCHEDULE.key());
        String schedule = written != null && written.isBlank() ? null : SCHEDULE.read(lookup);
        return new ReconcileSettings(BUSINESS_ZONE.read(lookup), schedule);
    }

    private static ZoneId zone(String key, String v) {
        try {
            return ZoneId.of(v);
        } catch (DateTimeException e) {
            throw new SettingsException(key + ": '" + v + "' is not a time zone (e.g. Asia/Jakarta,"
                    + " Asia/Makassar, Asia/Jayapura, UTC)");
        }
    }
}
