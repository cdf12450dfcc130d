package org.topupbatch.settings;

import java.util.List;
import java.util.function.Function;

/**
 * The management port: the dashboard, /observe/health and /observe/metrics
 * (docs/operating.md#dashboard-health-and-metrics), and who may use it (docs/security.md).
 *
 * @param port 0: off
 */
public record ManagementSettings(String host, int port, ManagementLogin login) {

    static final Setting<String> HOST = Setting.of("topup.management.host", "127.0.0.1",
            "address the dashboard, /observe/health and /observe/metrics listen on", SettingChecks::text);
    static final Setting<Integer> PORT = Setting.of("topup.management.port", "8086",
            "their port", SettingChecks.port());

    static final List<Setting<?>> DECLARED = List.of(HOST, PORT);

    /** Reads the host, the port (its own: Camel's management server and the webhook server cannot share one) and the login. */
    static ManagementSettings load(Function<String, String> lookup, WebhookSettings webhook) {
        String host = HOST.read(lookup);
        int port = PORT.read(lookup);
        if (port != 0 && port == webhook.port()) {
            throw new SettingsException("topup.management.port: " + port + " is also topup.webhook.port;"
                    + " give the dashboard its own port (or 0 to turn it off)");
        }
        return new ManagementSettings(host, port, ManagementLogin.load(key -> {
            String v = lookup.apply(key);
            return v == null || v.isBlank() ? null : v.trim();
        }));
    }

    /** The dashboard, /observe/health and /observe/metrics are served. */
    public boolean enabled() {
        return port != 0;
    }
}
