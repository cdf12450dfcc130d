package org.topupbatch.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Who may use the management port (docs/security.md): the browser's login ({@code topup.management.user}
 * and {@code topup.management.password}, HTTP basic), the host names the port answers to besides the
 * loopback ones ({@code topup.management.allowed-hosts}), and whether {@code /observe/metrics} is open
 * without a credential ({@code topup.management.metrics-open}). The bearer token is
 * {@code topup.intake.token}, read with the other settings.
 *
 * @param user         null: no basic login of its own (the token still works as the password)
 * @param password     null with user
 * @param allowedHosts lower case, each {@code name} (any port) or {@code name:port}
 */
public record ManagementLogin(String user, String password, List<String> allowedHosts, boolean metricsOpen) {

    static final Setting<String> USER = Setting.of("topup.management.user", null,
            "the dashboard's login (HTTP basic)", SettingChecks::text);
    static final Setting<String> PASSWORD = Setting.of("topup.management.password", null,
            "its password", SettingChecks::text);
    static final Setting<List<String>> ALLOWED_HOSTS = Setting.of("topup.management.allowed-hosts", null,
            "host names the management port answers to besides 127.0.0.1, localhost and [::1]",
            (key, v) -> allowedHosts(v));
    static final Setting<Boolean> METRICS_OPEN = Setting.of("topup.management.metrics-open", "false",
            "true: /observe/metrics answers without a credential even when one is set", (key, v) -> metricsOpen(v));

    static final List<Setting<?>> DECLARED = List.of(USER, PASSWORD, ALLOWED_HOSTS, METRICS_OPEN);

    /** Reads the four settings; throws {@link SettingsException} naming a bad one. */
    public static ManagementLogin load(Function<String, String> optional) {
        String user = USER.read(optional);
        String password = PASSWORD.read(optional);
        if ((user == null) != (password == null)) {
            throw new SettingsException("topup.management.user and topup.management.password go together: set both"
                    + " (the dashboard's login) or neither");
        }
        if (user != null && user.contains(":")) {
            throw new SettingsException("topup.management.user: a user name cannot hold ':' (HTTP basic separates the"
                    + " password with it)");
        }
        List<String> hosts = ALLOWED_HOSTS.read(optional);
        return new ManagementLogin(user, password, hosts == null ? List.of() : hosts, METRICS_OPEN.read(optional));
    }

    private static List<String> allowedHosts(String value) {
        List<String> hosts = new ArrayList<>();
        if (value == null) {
            return hosts;
        }
        for (String raw : value.split(",")) {
            String host = raw.trim().toLowerCase(Locale.ROOT);
            if (host.isEmpty()) {
                continue;
            }
            if (!host.matches("([a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\\[[0-9a-f:.]+\\])(:\\d{1,5})?")) {
                throw new SettingsException("topup.management.allowed-hosts: '" + org.topupbatch.text.OneLine.of(raw.trim(), 80)
                        + "' is not a host name (give names such as topup.example.com or topup.example.com:8443, comma separated)");
            }
            hosts.add(host);
        }
        return List.copyOf(hosts);
    }

    private static boolean metricsOpen(String value) {
        if (value == null || value.equalsIgnoreCase("false")) {
            return false;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        throw new SettingsException("topup.management.metrics-open: '" + org.topupbatch.text.OneLine.of(value, 40)
                + "' is neither true nor false");
    }

    /** Whether a login of its own is set. */
    public boolean hasUser() {
        return user != null;
    }

    /** The password is never shown. */
    @Override
    public String toString() {
        return "ManagementLogin[user=" + user + ", allowedHosts=" + allowedHosts + ", metricsOpen=" + metricsOpen + "]";
    }
}
