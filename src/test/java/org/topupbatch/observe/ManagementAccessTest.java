package org.topupbatch.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.topupbatch.settings.ManagementLogin;
import org.topupbatch.settings.SettingsException;

/**
 * The management port's decisions one by one (the built jar's ManagementAuthE2ETest shows them on
 * every route): Host names, Origin with and without default ports, the login and the token as a
 * browser's password, open metrics, and the settings that feed them.
 */
class ManagementAccessTest {

    static final int PORT = 8086;

    private static ManagementAccess access(String token, String user, String password, String allowed, String metricsOpen) {
        Map<String, String> settings = new HashMap<>();
        settings.put("topup.management.user", user);
        settings.put("topup.management.password", password);
        settings.put("topup.management.allowed-hosts", allowed);
        settings.put("topup.management.metrics-open", metricsOpen);
        return new ManagementAccess(token, ManagementLogin.load(settings::get), "127.0.0.1", PORT);
    }

    private static Optional<Integer> status(ManagementAccess access, String method, String path, String... headers) {
        Map<String, String> h = new HashMap<>();
        for (int i = 0; i < headers.length; i += 2) {
            h.put(headers[i].toLowerCase(Locale.ROOT), headers[i + 1]);
        }
        return access.check(method, path, name -> h.get(name.toLowerCase(Locale.ROOT))).map(ManagementAccess.Refusal::status);
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void the_host_must_name_this_server() {
        ManagementAccess open = access(null, null, null, "topup.example.com, ops.example.com:8443", null);
        assertThat(status(open, "GET", "/", "Host", "127.0.0.1:8086")).isEmpty();
        assertThat(status(open, "GET", "/", "Host", "LOCALHOST:8086")).isEmpty();
        assertThat(status(open, "GET", "/", "Host", "[::1]:8086")).isEmpty();
        assertThat(status(open, "GET", "/", "Host", "localhost")).isEmpty();
        assertThat(status(open, "GET", "/", "Host", "topup.example.com")).isEmpty();
        assertThat(status(open, "GET", "/", "Host", "ops.example.com:8443")).isEmpty();
        assertThat(status(open, "GET", "/", "Host", "ops.example.com:9999")).contains(403);
        assertThat(status(open, "GET", "/", "Host", "localhost:9999")).as("another port of this machine").contains(403);
        assertThat(status(open, "GET", "/", "Host", "evil.example:8086")).contains(403);
        assertThat(status(open, "GET", "/", "Host", "127.0.0.1.evil.example:8086")).contains(403);
        assertThat(status(open, "GET", "/")).as("no Host at all").contains(403);
        assertThat(status(open, "GET", "/observe/health", "Host", "10.1.2.3:8086")).as("probes, whatever their Host").isEmpty();
    }

    @Test
    void a_state_change_comes_from_this_origin_with_a_real_header() {
        ManagementAccess open = access(null, null, null, "topup.example.com", null);
        String cancel = "/batches/1/cancel";
        assertThat(status(open, "POST", cancel, "Host", "127.0.0.1:8086", "X-Topup-Confirm", "cancel",
                "Origin", "http://127.0.0.1:8086", "Sec-Fetch-Site", "same-origin")).isEmpty();
        assertThat(status(open, "POST", cancel, "Host", "127.0.0.1:8086", "X-Topup-Confirm", "cancel")).as("curl").isEmpty();
        assertThat(status(open, "POST", cancel, "Host", "127.0.0.1:8086")).as("no header").contains(403);
        assertThat(status(open, "POST", cancel, "Host", "127.0.0.1:8086", "X-Topup-Confirm", "cancel",
                "Origin", "https://evil.example")).contains(403);
        assertThat(status(open, "POST", cancel, "Host", "127.0.0.1:8086", "X-Topup-Confirm", "cancel",
                "Origin", "null")).contains(403);
        assertThat(status(open, "POST", cancel, "Host", "127.0.0.1:8086", "X-Topup-Confirm", "cancel",
                "Sec-Fetch-Site", "same-site")).contains(403);
        assertThat(status(open, "POST", cancel, "Host", "topup.example.com", "X-Topup-Confirm", "cancel",
                "Origin", "https://topup.example.com:443")).as("behind a TLS proxy, default port either way").isEmpty();
        assertThat(status(open, "POST", cancel, "Host", "127.0.0.1:8086", "X-Topup-Confirm", "cancel",
                "Origin", "http://127.0.0.1:9999")).as("another port is another origin").contains(403);
    }

    @Test
    void with_a_token_and_a_login_every_route_but_health_asks_for_either() {
        ManagementAccess guarded = access("tok-1", "op", "pw", null, null);
        String host = "127.0.0.1:8086";
        assertThat(status(guarded, "GET", "/dashboard.json", "Host", host)).contains(401);
        assertThat(status(guarded, "GET", "/dashboard.json", "Host", host, "Authorization", "Bearer tok-1")).isEmpty();
        assertThat(status(guarded, "GET", "/dashboard.json", "Host", host, "Authorization", "bearer tok-1")).isEmpty();
        assertThat(status(guarded, "GET", "/dashboard.json", "Host", host, "Authorization", "Bearer tok-2")).contains(401);
        assertThat(status(guarded, "GET", "/dashboard.json", "Host", host, "Authorization", basic("op", "pw"))).isEmpty();
        assertThat(status(guarded, "GET", "/dashboard.json", "Host", host, "Authorization", basic("anyone", "tok-1"))).isEmpty();
        assertThat(status(guarded, "GET", "/dashboard.json", "Host", host, "Authorization", basic("op", "tok"))).contains(401);
        assertThat(status(guarded, "GET", "/dashboard.json", "Host", host, "Authorization", "Basic %%%")).contains(401);
        assertThat(status(guarded, "GET", "/observe/metrics", "Host", host)).as("metrics closed by default").contains(401);
        assertThat(status(guarded, "GET", "/observe/health", "Host", host)).isEmpty();
        // a probe's plain request is open; the details Camel shows on request are the operator's
        assertThat(guarded.check("GET", "/observe/health", "exposureLevel=full",
                name -> name.equalsIgnoreCase("Host") ? host : null)).map(ManagementAccess.Refusal::status).contains(401);
        assertThat(guarded.check("GET", "/observe/health", "exposureLevel=full",
                name -> name.equalsIgnoreCase("Host") ? host : name.equalsIgnoreCase("Authorization") ? "Bearer tok-1" : null))
                .isEmpty();
        // the token is a header no page can make a browser send: it confirms by itself; a cached login does not
        assertThat(status(guarded, "POST", "/batches", "Host", host, "Authorization", "Bearer tok-1")).isEmpty();
        assertThat(status(guarded, "POST", "/batches", "Host", host, "Authorization", basic("op", "pw"))).contains(403);
        assertThat(status(guarded, "POST", "/batches", "Host", host, "Authorization", basic("op", "pw"),
                "X-Topup-Confirm", "order")).isEmpty();
        assertThat(status(access("tok-1", null, null, null, "true"), "GET", "/observe/metrics", "Host", host)).isEmpty();
    }

    @Test
    void bad_settings_are_named() {
        assertThatThrownBy(() -> access(null, "op", null, null, null)).isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("topup.management.user and topup.management.password go together");
        assertThatThrownBy(() -> access(null, null, null, "good.example, bad/host", null)).isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("topup.management.allowed-hosts: 'bad/host'");
        assertThatThrownBy(() -> access(null, null, null, null, "yes")).isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("topup.management.metrics-open: 'yes'");
        assertThat(ManagementLogin.load(Map.of("topup.management.password", "pw", "topup.management.user", "op")::get))
                .asString().doesNotContain("pw");
        assertThat(ManagementAccess.loopback("127.0.0.1")).isTrue();
        assertThat(ManagementAccess.loopback("::1")).isTrue();
        assertThat(ManagementAccess.loopback("0.0.0.0")).isFalse();
        assertThat(ManagementAccess.loopback("192.168.1.5")).isFalse();
    }
}
