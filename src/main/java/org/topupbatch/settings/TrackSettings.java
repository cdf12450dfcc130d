package org.topupbatch.settings;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/** How long orders are followed: pending ones before a batch's report, rows held through a product's outage. */
public record TrackSettings(Duration pendingTimeout, Duration outageWait, Duration outageRecheck) {

    static final Setting<Duration> PENDING_TIMEOUT = Setting.of("topup.pending-timeout", "30m",
            "how long a batch waits for pending orders", SettingChecks.duration(Duration.ofSeconds(1)));
    static final Setting<Duration> OUTAGE_WAIT = Setting.of("topup.outage-wait", "30m",
            "rows of a product the provider reports unavailable are held, not sent, this long from the outage's start",
            SettingChecks.duration(Duration.ofSeconds(1)));
    static final Setting<Duration> OUTAGE_RECHECK = Setting.of("topup.outage-recheck", "1m",
            "while a product is held, the price list is read this often to see whether it is back",
            SettingChecks.duration(Duration.ofSeconds(1)));

    static final List<Setting<?>> DECLARED = List.of(PENDING_TIMEOUT, OUTAGE_WAIT, OUTAGE_RECHECK);

    static TrackSettings load(Function<String, String> lookup) {
        return new TrackSettings(PENDING_TIMEOUT.read(lookup), OUTAGE_WAIT.read(lookup), OUTAGE_RECHECK.read(lookup));
    }
}
