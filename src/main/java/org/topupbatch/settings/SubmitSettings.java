package org.topupbatch.settings;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/** How orders are sent: calls in flight at most, and the timeouts of every provider call. */
public record SubmitSettings(int concurrency, Duration connectTimeout, Duration responseTimeout) {

    static final Setting<Integer> CONCURRENCY = Setting.of("topup.submit.concurrency", "16",
            "provider calls in flight at most while submitting", SettingChecks.integer(1, 256));
    static final Setting<Duration> CONNECT_TIMEOUT = Setting.of("topup.http.connect-timeout", "5s",
            "connect timeout of every provider call", SettingChecks.duration(Duration.ofMillis(100)));
    static final Setting<Duration> RESPONSE_TIMEOUT = Setting.of("topup.http.response-timeout", "30s",
            "response timeout of every provider call", SettingChecks.duration(Duration.ofMillis(100)));

    static final List<Setting<?>> DECLARED = List.of(CONCURRENCY, CONNECT_TIMEOUT, RESPONSE_TIMEOUT);

    static SubmitSettings load(Function<String, String> lookup) {
        return new SubmitSettings(CONCURRENCY.read(lookup), CONNECT_TIMEOUT.read(lookup), RESPONSE_TIMEOUT.read(lookup));
    }
}
