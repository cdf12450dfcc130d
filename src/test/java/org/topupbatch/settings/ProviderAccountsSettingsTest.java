package org.topupbatch.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** topup.providers and topup.provider.NAME.* (docs/accounts-and-dialects.md#several-accounts). */
class ProviderAccountsSettingsTest {

    private final Map<String, String> env = new HashMap<>();
    private final Properties system = new Properties();
    private final Properties file = bundled();

    private Settings load() {
        return Settings.load(new SettingsLookup(file, env, system));
    }

    private static Properties bundled() {
        Properties p = new Properties();
        try (var in = ProviderAccountsSettingsTest.class.getResourceAsStream("/application.properties")) {
            p.load(in);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return p;
    }

    private void twoAccounts() {
        env.put("TOPUP_PROVIDERS", "main, dfz-2");
        env.put("TOPUP_PROVIDER_MAIN_BASE_URL", "https://api.example.co.id/");
        env.put("TOPUP_PROVIDER_MAIN_API_KEY", "RSL-1");
        env.put("TOPUP_PROVIDER_MAIN_API_SECRET", "main-secret-123");
        env.put("TOPUP_PROVIDER_DFZ_2_DIALECT", "Digiflazz");
        env.put("TOPUP_PROVIDER_DFZ_2_BASE_URL", "https://api.digiflazz.com");
        env.put("TOPUP_PROVIDER_DFZ_2_API_KEY", "myusername");
        env.put("TOPUP_PROVIDER_DFZ_2_API_SECRET", "dfz-key-456");
        env.put("TOPUP_PROVIDER_DFZ_2_RATE_LIMIT", "60");
        env.put("TOPUP_PROVIDER_DFZ_2_WEBHOOK_SECRET", "dfz-hook-789");
    }

    @Test
    void no_accounts_when_topup_providers_is_unset() {
        Settings s = load();
        assertThat(s.provider().accounts()).isEmpty();
        // the one account of topup.base-url: a list of one, with no name
        assertThat(AccountList.names(s)).containsExactly((String) null);
        assertThat(s.provider().productMap()).isNull();
        assertThat(s.toString()).doesNotContain("accounts=");
    }

    @Test
    void accounts_come_from_environment_variables_named_by_the_usual_rule_in_list_order() {
        twoAccounts();
        Settings s = load();
        assertThat(s.provider().accounts()).containsExactly(
                new ProviderAccount("main", "topup", "https://api.example.co.id", "RSL-1", "main-secret-123", 0, null),
                new ProviderAccount("dfz-2", "digiflazz", "https://api.digiflazz.com", "myusername", "dfz-key-456", 60,
                        "dfz-hook-789"));
        assertThat(AccountList.of(s)).isEqualTo(s.provider().accounts());
        assertThat(s.toString()).contains("accounts=[main, dfz-2]");
    }

    @Test
    void system_properties_and_application_properties_name_them_too_and_a_system_property_wins() {
        file.setProperty("topup.providers", "a");
        file.setProperty("topup.provider.a.base-url", "http://file.example");
        file.setProperty("topup.provider.a.api-key", "k");
        file.setProperty("topup.provider.a.api-secret", "s");
        assertThat(load().provider().accounts().get(0).baseUrl()).isEqualTo("http://file.example");
        env.put("TOPUP_PROVIDER_A_BASE_URL", "http://env.example");
        assertThat(load().provider().accounts().get(0).baseUrl()).isEqualTo("http://env.example");
        system.setProperty("topup.provider.a.base-url", "http://system.example");
        assertThat(load().provider().accounts().get(0).baseUrl()).isEqualTo("http://system.example");
    }

    @Test
    void the_secrets_are_never_in_to_string() {
        twoAccounts();
        Settings s = load();
        for (ProviderAccount a : s.provider().accounts()) {
            assertThat(a.toString()).doesNotContain(a.apiSecret()).contains(a.name()).contains(a.baseUrl());
        }
        assertThat(s.provider().accounts().get(1).toString()).doesNotContain("dfz-hook-789").contains("webhookSecret=(set)");
        assertThat(s.toString()).doesNotContain("main-secret-123", "dfz-key-456", "dfz-hook-789");
    }

    @Test
    void a_missing_required_value_names_the_setting_and_its_environment_variable() {
        twoAccounts();
        env.put("TOPUP_PROVIDERS", "main,backup");
        assertThatThrownBy(this::load).isInstanceOf(SettingsException.class)
                .hasMessage("topup.provider.backup.base-url is not set (TOPUP_PROVIDER_BACKUP_BASE_URL)");
        env.put("TOPUP_PROVIDER_BACKUP_BASE_URL", "https://b.example");
        assertThatThrownBy(this::load).hasMessage("topup.provider.backup.api-key is not set (TOPUP_PROVIDER_BACKUP_API_KEY)");
        env.put("TOPUP_PROVIDER_BACKUP_API_KEY", "k");
        assertThatThrownBy(this::load).hasMessage("topup.provider.backup.api-secret is not set (TOPUP_PROVIDER_BACKUP_API_SECRET)");
        env.put("TOPUP_PROVIDER_BACKUP_API_SECRET", "  ");
        assertThatThrownBy(this::load).hasMessage("topup.provider.backup.api-secret is not set (TOPUP_PROVIDER_BACKUP_API_SECRET)");
    }

    @Test
    void bad_values_stop_the_start_with_one_line_naming_the_setting_and_no_secret() {
        twoAccounts();
        Map<String, String> cases = Map.of(
                "TOPUP_PROVIDER_MAIN_BASE_URL=ftp://x.example", "topup.provider.main.base-url: 'ftp://x.example' is not an http:// or https:// address",
                "TOPUP_PROVIDER_MAIN_DIALECT=h2h", "topup.provider.main.dialect: 'h2h' is not a dialect we speak (topup, digiflazz)",
                "TOPUP_PROVIDER_MAIN_RATE_LIMIT=fast", "topup.provider.main.rate-limit: 'fast' is not a whole number of requests per minute",
                "TOPUP_PROVIDER_MAIN_RATE_LIMIT=-1", "topup.provider.main.rate-limit: -1 is outside 0..100000 (requests per minute; 0 = from the provider)",
                "TOPUP_PROVIDERS=main,Backup", "topup.providers: 'Backup' is not an account name (1 to 20 lower-case letters, digits and -, the names separated by commas)",
                "TOPUP_PROVIDERS=main,,dfz-2", "topup.providers: '' is not an account name (1 to 20 lower-case letters, digits and -, the names separated by commas)",
                "TOPUP_PROVIDERS=main,a234567890123456789012", "topup.providers: 'a234567890123456789012' is not an account name (1 to 20 lower-case letters, digits and -, the names separated by commas)",
                "TOPUP_PROVIDERS=main,dfz-2,main", "topup.providers: 'main' is listed twice");
        cases.forEach((setting, message) -> {
            Map<String, String> before = new HashMap<>(env);
            String[] kv = setting.split("=", 2);
            env.put(kv[0], kv[1]);
            assertThatThrownBy(this::load).as(setting).isInstanceOf(SettingsException.class).hasMessage(message)
                    .message().doesNotContain("main-secret-123", "dfz-key-456", "dfz-hook-789");
            env.clear();
            env.putAll(before);
        });
    }

    @Test
    void the_one_account_and_a_named_account_read_a_value_alike() {
        // one declaration each (ProviderSettings.ACCOUNT_*): same default, same check, same words
        Map<String, String> cases = Map.of("fast", "'fast' is not a whole number of requests per minute",
                "100001", "100001 is outside 0..100000 (requests per minute; 0 = from the provider)",
                "h2h", "'h2h' is not a dialect we speak (topup, digiflazz)");
        cases.forEach((value, refusal) -> {
            String suffix = value.equals("h2h") ? "DIALECT" : "RATE_LIMIT";
            env.clear();
            env.put("TOPUP_BASE_URL", "https://api.example.co.id");
            env.put("TOPUP_API_KEY", "RSL-1");
            env.put("TOPUP_API_SECRET", "s");
            env.put("TOPUP_" + suffix, value);
            assertThatThrownBy(this::load).as("topup." + suffix).hasMessage(
                    "topup." + suffix.toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ": " + refusal);
            env.clear();
            twoAccounts();
            env.put("TOPUP_PROVIDER_MAIN_" + suffix, value);
            assertThatThrownBy(this::load).as("topup.provider.main." + suffix).hasMessage(
                    "topup.provider.main." + suffix.toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ": " + refusal);
        });
        env.clear();
        twoAccounts();
        assertThat(load().provider().accounts().get(0).dialect()).as("the default dialect").isEqualTo("topup");
        assertThat(load().provider().accounts().get(0).rateLimit()).as("the default rate limit").isZero();
    }

    @Test
    void topup_providers_and_the_single_account_settings_are_one_or_the_other() {
        twoAccounts();
        env.put("TOPUP_BASE_URL", "https://one.example");
        assertThatThrownBy(this::load).hasMessage("topup.providers and topup.base-url are both set: use one or the other"
                + " (the named accounts' topup.provider.NAME.* settings, or the one account of topup.base-url)");
        env.remove("TOPUP_BASE_URL");
        env.put("TOPUP_API_SECRET", "x");
        assertThatThrownBy(this::load).hasMessageStartingWith("topup.providers and topup.api-secret are both set");
        env.remove("TOPUP_API_SECRET");
        env.put("TOPUP_DIALECT", "digiflazz");
        assertThatThrownBy(this::load).hasMessage("topup.dialect: with topup.providers each account has its own"
                + " (topup.provider.NAME.dialect); leave topup.dialect unset");
        env.remove("TOPUP_DIALECT");
        env.put("TOPUP_RATE_LIMIT", "60");
        assertThatThrownBy(this::load).hasMessageStartingWith("topup.rate-limit: with topup.providers each account has its own");
    }

    @Test
    void the_product_map_is_a_path_and_needs_accounts() {
        env.put("TOPUP_PRODUCT_MAP", "map.csv");
        assertThatThrownBy(this::load).hasMessage("topup.product-map is set but topup.providers is not: the map names"
                + " accounts of topup.providers");
        twoAccounts();
        assertThat(load().provider().productMap()).isEqualTo(Path.of("map.csv"));
    }
}
