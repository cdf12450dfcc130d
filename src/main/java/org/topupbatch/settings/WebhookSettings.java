package org.topupbatch.settings;

import java.util.List;
import java.util.function.Function;

/**
 * The receiver of the provider's webhooks.
 *
 * @param port   0: off (polling alone)
 * @param secret the provider's webhook secret; null: every webhook is only a hint. Never shown
 */
public record WebhookSettings(String host, int port, String path, String secret) {

    static final Setting<String> HOST = Setting.of("topup.webhook.host", "0.0.0.0",
            "address the webhook receiver listens on", SettingChecks::text);
    static final Setting<Integer> PORT = Setting.of("topup.webhook.port", "8085",
            "port of the webhook receiver, in every mode", SettingChecks.port());
    static final Setting<String> PATH = Setting.of("topup.webhook.path", "/webhook",
            "path of the webhook receiver", WebhookSettings::path);
    static final Setting<String> SECRET = Setting.of("topup.webhook.secret", null,
            "the provider's webhook secret", SettingChecks::text);

    static final List<Setting<?>> DECLARED = List.of(HOST, PORT, PATH, SECRET);

    static WebhookSettings load(Function<String, String> lookup) {
        return new WebhookSettings(HOST.read(lookup), PORT.read(lookup), PATH.read(lookup), SECRET.read(lookup));
    }

    public boolean enabled() {
        return port != 0;
    }

    /**
     * With several accounts, the path account {@code name}'s webhooks are posted to: topup.webhook.path
     * followed by /NAME (one slash, whether the path ends with one or not).
     */
    public String accountPath(String name) {
        return (path.endsWith("/") ? path.substring(0, path.length() - 1) : path) + "/" + name;
    }

    @Override
    public String toString() {
        return "WebhookSettings[" + host + ":" + port + path + "]";
    }

    private static String path(String key, String v) {
        if (!v.matches("/[A-Za-z0-9._~/-]*")) {
            throw new SettingsException(key + ": '" + v + "' must start with / and hold only letters, digits and - . _ ~ /");
        }
        return v;
    }
}
