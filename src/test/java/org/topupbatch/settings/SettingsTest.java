package org.topupbatch.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.topupbatch.settings.BalancePolicy;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.settings.PickUpSettings;

class SettingsTest {

    private final Map<String, String> env = new HashMap<>();
    private final Properties system = new Properties();

    private Settings load() {
        return Settings.load(new SettingsLookup(fileOf(), env, system));
    }

    private static Properties fileOf() {
        Properties p = new Properties();
        try (var in = SettingsTest.class.getResourceAsStream("/application.properties")) {
            p.load(in);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return p;
    }

    @Test
    void every_setting_has_its_contract_default() {
        Settings s = load();
        assertThat(s.provider().embeddedSandbox()).isTrue();
        assertThat(s.provider().apiKey()).isEqualTo("RSL-7F3A9C21");
        assertThat(s.folders().inbox()).hasToString("inbox");
        assertThat(s.folders().reports()).hasToString("reports");
        assertThat(s.folders().data()).hasToString("data");
        assertThat(s.pickUp().mode()).isEqualTo(PickUpSettings.Mode.WATCH);
        assertThat(s.pickUp().schedule()).isNull();
        assertThat(s.webhook().port()).isEqualTo(8085);
        assertThat(s.webhook().path()).isEqualTo("/webhook");
        assertThat(s.track().pendingTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(s.guards().balancePolicy()).isEqualTo(BalancePolicy.BEST_EFFORT);
        assertThat(s.management().port()).isEqualTo(8086);
        assertThat(s.management().host()).isEqualTo("127.0.0.1");
    }

    @Test
    void the_dashboard_turns_off_with_port_0_and_cannot_share_the_webhook_port() {
        env.put("TOPUP_MANAGEMENT_PORT", "0");
        assertThat(load().management().enabled()).isFalse();
        env.put("TOPUP_MANAGEMENT_PORT", "9000");
        env.put("TOPUP_WEBHOOK_PORT", "9000");
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class)
                .hasMessage("topup.management.port: 9000 is also topup.webhook.port; give the dashboard its own port (or 0 to turn it off)");
    }

    @Test
    void the_repeat_window_is_24h_by_default_0_turns_it_off_and_a_bad_value_says_so_in_one_line() {
        assertThat(load().guards().repeatWindow()).isEqualTo(Duration.ofHours(24));
        env.put("TOPUP_REPEAT_WINDOW", "0");
        assertThat(load().guards().repeatWindow()).isZero();
        env.put("TOPUP_REPEAT_WINDOW", "7d");
        assertThat(load().guards().repeatWindow()).isEqualTo(Duration.ofDays(7));
        env.put("TOPUP_REPEAT_WINDOW", "a day");
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class).hasMessage(
                "topup.repeat-window: 'a day' is not a time such as 30m, 24h or 7d (0 turns the repeat guard off)");
    }

    @Test
    void the_money_guards_settings_have_their_defaults_and_a_bad_value_says_so_in_one_line() {
        assertThat(load().guards().priceTolerance()).isEqualByComparingTo("10");
        assertThat(load().track().outageWait()).isEqualTo(Duration.ofMinutes(30));
        assertThat(load().track().outageRecheck()).isEqualTo(Duration.ofMinutes(1));
        env.put("TOPUP_PRICE_TOLERANCE", "2.5%");
        assertThat(load().guards().priceTolerance()).isEqualByComparingTo("2.5");
        env.put("TOPUP_PRICE_TOLERANCE", "0");
        assertThat(load().guards().priceTolerance()).isEqualByComparingTo("0");
        env.put("TOPUP_PRICE_TOLERANCE", "ten");
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class).hasMessage("topup.price-tolerance: 'ten' is not"
                + " a percentage from 0% to 1000% such as 10% (0% sends nothing dearer than when accepted)");
        env.remove("TOPUP_PRICE_TOLERANCE");
        env.put("TOPUP_OUTAGE_WAIT", "half an hour");
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class).hasMessageStartingWith("topup.outage-wait:");
    }

    @Test
    void reconciliation_closes_jakarta_days_shortly_after_midnight_unless_turned_off() {
        assertThat(load().reconcile().businessZone()).isEqualTo(java.time.ZoneId.of("Asia/Jakarta"));
        assertThat(load().reconcile().schedule()).isEqualTo("0 30 0 * * ?");
        env.put("TOPUP_BUSINESS_ZONE", "Asia/Makassar");
        env.put("TOPUP_RECONCILE_SCHEDULE", "15 1 * * *");
        assertThat(load().reconcile().businessZone()).isEqualTo(java.time.ZoneId.of("Asia/Makassar"));
        assertThat(load().reconcile().schedule()).isEqualTo("0 15 1 * * ?");
        env.put("TOPUP_RECONCILE_SCHEDULE", "");
        assertThat(load().reconcile().schedule()).as("empty turns it off").isNull();
    }

    @Test
    void environment_overrides_the_file_and_system_properties_override_both() {
        env.put("TOPUP_MODE", "once");
        env.put("TOPUP_PENDING_TIMEOUT", "90s");
        env.put("TOPUP_BALANCE_POLICY", "all-or-nothing");
        env.put("TOPUP_WEBHOOK_PORT", "0");
        assertThat(load().pickUp().mode()).isEqualTo(PickUpSettings.Mode.ONCE);
        assertThat(load().track().pendingTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(load().guards().balancePolicy()).isEqualTo(BalancePolicy.ALL_OR_NOTHING);
        assertThat(load().webhook().enabled()).isFalse();
        system.setProperty("topup.mode", "watch");
        assertThat(load().pickUp().mode()).isEqualTo(PickUpSettings.Mode.WATCH);
    }

    @Test
    void charsets_are_auto_by_default_and_named_ones_are_taken() {
        assertThat(load().pickUp().inputCharset()).isNull();
        assertThat(load().report().charset()).isNull();
        env.put("TOPUP_INPUT_CHARSET", "Windows-1252");
        env.put("TOPUP_REPORT_CHARSET", "utf-8");
        assertThat(load().pickUp().inputCharset().name()).isEqualTo("windows-1252");
        assertThat(load().report().charset().name()).isEqualTo("UTF-8");
    }

    @Test
    void the_secret_is_never_shown() {
        env.put("TOPUP_BASE_URL", "https://p.example");
        env.put("TOPUP_API_KEY", "RSL-1");
        env.put("TOPUP_API_SECRET", "very-secret-value");
        env.put("TOPUP_DB_PASSWORD", "db-secret-value");
        assertThat(load().toString()).doesNotContain("very-secret-value").doesNotContain("db-secret-value");
    }

    /** A group handed to its area is shown in logs as well: none shows a secret. */
    @Test
    void no_group_shows_a_secret() {
        env.put("TOPUP_BASE_URL", "https://p.example");
        env.put("TOPUP_API_KEY", "RSL-1");
        env.put("TOPUP_API_SECRET", "very-secret-value");
        env.put("TOPUP_DB_PASSWORD", "db-secret-value");
        env.put("TOPUP_WEBHOOK_SECRET", "hook-secret-value");
        env.put("TOPUP_INTAKE_TOKEN", "token-secret-value");
        env.put("TOPUP_MANAGEMENT_USER", "ops");
        env.put("TOPUP_MANAGEMENT_PASSWORD", "login-secret-value");
        Settings s = load();
        for (Object group : java.util.List.of(s.provider(), s.webhook(), s.journal(), s.intake(), s.management())) {
            assertThat(group.toString()).doesNotContain("secret-value");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "TOPUP_MODE|sometimes|topup.mode",
        "TOPUP_PENDING_TIMEOUT|soon|topup.pending-timeout",
        "TOPUP_PENDING_TIMEOUT|30x|topup.pending-timeout",
        "TOPUP_WEBHOOK_PORT|70000|topup.webhook.port",
        "TOPUP_WEBHOOK_PORT|http|topup.webhook.port",
        "TOPUP_WEBHOOK_PATH|webhook|topup.webhook.path",
        "TOPUP_MANAGEMENT_PORT|-1|topup.management.port",
        "TOPUP_MANAGEMENT_PORT|dash|topup.management.port",
        "TOPUP_BALANCE_POLICY|greedy|topup.balance-policy",
        "TOPUP_SCHEDULE|every night|topup.schedule",
        "TOPUP_RECONCILE_SCHEDULE|after midnight|topup.reconcile.schedule",
        "TOPUP_BUSINESS_ZONE|Jakarta|topup.business-zone",
        "TOPUP_BASE_URL|ftp://provider|topup.base-url",
        "TOPUP_SUBMIT_CONCURRENCY|0|topup.submit.concurrency",
        "TOPUP_HTTP_RESPONSE_TIMEOUT|5|topup.http.response-timeout",
        "TOPUP_INPUT_CHARSET|latin-9000|topup.input-charset",
        "TOPUP_REPORT_CHARSET|utf 8|topup.report.charset",
    })
    void a_bad_value_names_its_setting(String variable, String value, String key) {
        env.put(variable, value);
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class)
                .hasMessageStartingWith(key + ":").hasMessageContaining(value);
    }

    @Test
    void with_no_provider_settings_the_embedded_sandbox_runs_with_its_demo_account() {
        env.put("TOPUP_API_KEY", " ");
        Settings s = load();
        assertThat(s.provider().embeddedSandbox()).isTrue();
        assertThat(ProviderName.of(s)).isEqualTo("sandbox");
        assertThat(s.provider().apiKey()).isEqualTo(SandboxConfig.defaults().apiKey());
        assertThat(s.provider().apiSecret()).isEqualTo(SandboxConfig.defaults().apiSecret());
    }

    @Test
    void the_credentials_have_no_default() {
        assertThat(fileOf().getProperty("topup.api-key")).isBlank();
        assertThat(fileOf().getProperty("topup.api-secret")).isBlank();
    }

    @Test
    void a_full_provider_configuration_orders_from_that_provider() {
        env.put("TOPUP_BASE_URL", "https://api.example-topup.co.id/");
        env.put("TOPUP_API_KEY", "RSL-REAL");
        env.put("TOPUP_API_SECRET", "real-secret");
        Settings s = load();
        assertThat(s.provider().embeddedSandbox()).isFalse();
        assertThat(s.provider().baseUrl()).isEqualTo("https://api.example-topup.co.id");
        assertThat(s.provider().apiKey()).isEqualTo("RSL-REAL");
        assertThat(ProviderName.of(s)).isEqualTo("api.example-topup.co.id");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "https://p.example||"
            + "|topup.base-url is set but topup.api-key and topup.api-secret are not (set TOPUP_API_KEY and TOPUP_API_SECRET)",
        "https://p.example|RSL-1|"
            + "|topup.base-url and topup.api-key are set but topup.api-secret is not (set TOPUP_API_SECRET)",
        "https://p.example||sec"
            + "|topup.base-url and topup.api-secret are set but topup.api-key is not (set TOPUP_API_KEY)",
        "|RSL-1|sec"
            + "|topup.api-key and topup.api-secret are set but topup.base-url is not (set TOPUP_BASE_URL)",
        "|RSL-1|"
            + "|topup.api-key is set but topup.base-url and topup.api-secret are not (set TOPUP_BASE_URL and TOPUP_API_SECRET)",
    })
    void half_a_provider_configuration_says_exactly_what_is_missing(String baseUrl, String key, String secret,
                                                                    String message) {
        env.put("TOPUP_BASE_URL", baseUrl == null ? "" : baseUrl);
        env.put("TOPUP_API_KEY", key == null ? "" : key);
        env.put("TOPUP_API_SECRET", secret == null ? "" : secret);
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class).hasMessage(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("RSL-1"));
    }

    @Test
    void unix_cron_becomes_quartz_cron() {
        env.put("TOPUP_SCHEDULE", "0 2 * * *");
        assertThat(load().pickUp().schedule()).isEqualTo("0 0 2 * * ?");
        assertThat(SettingChecks.toQuartzCron("30 1 * * 1-5")).isEqualTo("0 30 1 ? * 2-6");
        assertThat(SettingChecks.toQuartzCron("0 3 * * 0,6")).isEqualTo("0 0 3 ? * 1,7");
        assertThat(SettingChecks.toQuartzCron("0 3 * * MON-FRI")).isEqualTo("0 0 3 ? * MON-FRI");
        env.put("TOPUP_SCHEDULE", "0 0 2 * * ?");
        assertThat(load().pickUp().schedule()).isEqualTo("0 0 2 * * ?");
    }

    @Test
    void sizes_of_time() {
        assertThat(DurationSetting.parse("k", "90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(DurationSetting.parse("k", "30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(DurationSetting.parse("k", "2h")).isEqualTo(Duration.ofHours(2));
        assertThat(DurationSetting.parse("k", "250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(SettingsLookup.environmentName("topup.webhook.port")).isEqualTo("TOPUP_WEBHOOK_PORT");
        assertThat(SettingsLookup.environmentName("topup.base-url")).isEqualTo("TOPUP_BASE_URL");
    }
}
