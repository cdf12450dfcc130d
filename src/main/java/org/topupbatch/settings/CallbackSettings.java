package org.topupbatch.settings;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The outbox's settings (docs/callbacks.md, docs/operating.md#notifications): the ERP's callback for
 * every batch ({@code topup.callback.url}), the hosts a callback may go to
 * ({@code topup.callback.allowed-hosts}), the secret that signs callbacks ({@code topup.callback.secret}),
 * the base of the report URL a callback names ({@code topup.callback.report-base-url}), and the
 * back-off every outgoing message shares: {@code topup.notify.retry-delay} (the first retry's wait)
 * and {@code topup.notify.give-up-after} (how long a message is tried before it is given up).
 */
public record CallbackSettings(String url, List<String> allowedHosts, String secret, String reportBaseUrl,
                               Duration retryDelay, Duration giveUpAfter) {

    static final Setting<String> URL = Setting.of("topup.callback.url", null,
            "an ERP's URL that gets a signed batch_reported callback for every batch", CallbackSettings::address);
    static final Setting<List<String>> ALLOWED_HOSTS = Setting.of("topup.callback.allowed-hosts", null,
            "host names (or address literals), comma-separated, a batch's own callback_url may name",
            (key, v) -> Arrays.stream(v.split(",")).map(String::trim).filter(h -> !h.isEmpty()).toList());
    static final Setting<String> SECRET = Setting.of("topup.callback.secret", null,
            "the secret callbacks are signed with", (key, v) -> v);
    static final Setting<String> REPORT_BASE_URL = Setting.of("topup.callback.report-base-url", null,
            "put before /batches/{id}/report in a callback's report_url", CallbackSettings::address);
    static final Setting<Duration> RETRY_DELAY = Setting.of("topup.notify.retry-delay", "2000",
            "milliseconds (or a time such as 10s) before a failed delivery's first retry", CallbackSettings::retryDelay);
    static final Setting<Duration> GIVE_UP_AFTER = Setting.of("topup.notify.give-up-after", "2d",
            "how long a notice or callback that cannot be delivered is tried before it is given up",
            SettingChecks.duration(Duration.ZERO));

    static final List<Setting<?>> DECLARED = List.of(RETRY_DELAY, GIVE_UP_AFTER, URL, ALLOWED_HOSTS, SECRET, REPORT_BASE_URL);

    /** Reads the settings; a callback URL, for every batch or for one, needs a secret to sign with. */
    public static CallbackSettings load(Function<String, String> lookup) {
        String url = URL.read(lookup);
        String secret = SECRET.read(lookup);
        if (url != null && secret == null) {
            throw new SettingsException("topup.callback.url is set but topup.callback.secret is not:"
                    + " set TOPUP_CALLBACK_SECRET to the secret the ERP verifies callbacks with");
        }
        List<String> allowed = ALLOWED_HOSTS.read(lookup);
        return new CallbackSettings(url, allowed == null ? List.of() : allowed, secret, REPORT_BASE_URL.read(lookup),
                RETRY_DELAY.read(lookup), GIVE_UP_AFTER.read(lookup));
    }

    /** An http(s) address, kept as written: the ERP's URL is called exactly as it was given. */
    private static String address(String key, String v) {
        SettingChecks.url(key, v);
        return v;
    }

    /** Milliseconds as a bare number (as it always was), or a time such as {@code 10s}; above zero. */
    private static Duration retryDelay(String key, String v) {
        Duration delay = v.matches("\\d{1,9}") ? Duration.ofMillis(Long.parseLong(v)) : DurationSetting.parse(key, v);
        if (delay.isZero()) {
            throw new SettingsException(key + ": '" + v + "' must be above zero");
        }
        return delay;
    }

    /** Whether any batch may have a callback: the outbox's delivery route is needed then. */
    public boolean anyCallback() {
        return url != null || perBatchAllowed();
    }

    /** Whether a batch may name its own callback: only with a secret to sign it and hosts to allow. */
    public boolean perBatchAllowed() {
        return secret != null && !allowedHosts.isEmpty();
    }

    @Override
    public String toString() {
        return "CallbackSettings[url=" + (url == null ? null : Settings.shownUri(url)) + ", allowedHosts=" + allowedHosts
                + ", secret=" + (secret == null ? null : "****") + ", retryDelay=" + retryDelay + ", giveUpAfter="
                + giveUpAfter + "]";
    }
}
