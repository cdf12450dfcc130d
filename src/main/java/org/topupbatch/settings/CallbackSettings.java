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

    /** Reads the settings; a callback URL, for every batch or for one, needs a secret to sign with. */
    public static CallbackSettings load(Function<String, String> optional) {
        String url = blankToNull(optional.apply("topup.callback.url"));
        String hosts = optional.apply("topup.callback.allowed-hosts");
        List<String> allowed = hosts == null ? List.of()
                : Arrays.stream(hosts.split(",")).map(String::trim).filter(h -> !h.isEmpty()).toList();
        String secret = blankToNull(optional.apply("topup.callback.secret"));
        String base = blankToNull(optional.apply("topup.callback.report-base-url"));
        if (url != null) {
            SettingChecks.url("topup.callback.url", url);
            if (secret == null) {
                throw new SettingsException("topup.callback.url is set but topup.callback.secret is not:"
                        + " set TOPUP_CALLBACK_SECRET to the secret the ERP verifies callbacks with");
            }
        }
        if (base != null) {
            SettingChecks.url("topup.callback.report-base-url", base);
        }
        String delay = optional.apply("topup.notify.retry-delay");
        Duration retryDelay = delay == null ? Duration.ofSeconds(2)
                : delay.trim().matches("\\d{1,9}") ? Duration.ofMillis(Long.parseLong(delay.trim()))
                : DurationSetting.parse("topup.notify.retry-delay", delay);
        if (retryDelay.isZero()) {
            throw new SettingsException("topup.notify.retry-delay: '" + delay + "' must be above zero");
        }
        String giveUp = optional.apply("topup.notify.give-up-after");
        Duration giveUpAfter = giveUp == null ? Duration.ofDays(2) : DurationSetting.parse("topup.notify.give-up-after", giveUp);
        return new CallbackSettings(url, allowed, secret, base, retryDelay, giveUpAfter);
    }

    /** Whether any batch may have a callback: the outbox's delivery route is needed then. */
    public boolean anyCallback() {
        return url != null || perBatchAllowed();
    }

    /** Whether a batch may name its own callback: only with a secret to sign it and hosts to allow. */
    public boolean perBatchAllowed() {
        return secret != null && !allowedHosts.isEmpty();
    }

    private static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v.trim();
    }

    @Override
    public String toString() {
        return "CallbackSettings[url=" + (url == null ? null : Settings.shownUri(url)) + ", allowedHosts=" + allowedHosts
                + ", secret=" + (secret == null ? null : "****") + ", retryDelay=" + retryDelay + ", giveUpAfter="
                + giveUpAfter + "]";
    }
}
