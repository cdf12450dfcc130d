package org.topupbatch.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** topup.db.url takes a JDBC URL; a libpq postgres:// URL gets one line showing the JDBC form. */
class DatabaseUrlSettingTest {

    private static Settings load(String dbUrl) {
        Properties file = new Properties(); // no provider settings: the embedded sandbox
        return Settings.load(new SettingsLookup(file, Map.of("TOPUP_DB_URL", dbUrl), new Properties()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "postgres://topup:pw-s3cret@db.example:5432/topup | topup.db.url=jdbc:postgresql://db.example:5432/topup with topup.db.user=topup and the password in topup.db.password | 'postgres://topup:***@db.example:5432/topup'",
        "postgresql://db:5432/topup?sslmode=require | topup.db.url=jdbc:postgresql://db:5432/topup?sslmode=require | 'postgresql://db:5432/topup?sslmode=require'",
        "POSTGRES://u@db/topup?password=pw-s3cret | topup.db.url=jdbc:postgresql://db/topup?password=*** with topup.db.user=u | 'POSTGRES://u@db/topup?password=***'",
        "postgres://db | topup.db.url=jdbc:postgresql://db/ | 'postgres://db'",
    })
    void a_libpq_url_names_the_setting_and_shows_the_jdbc_form_without_the_password(String given, String form, String shown) {
        assertThatThrownBy(() -> load(given))
                .isInstanceOf(SettingsException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .startsWith("topup.db.url: " + shown + " is not a JDBC URL; use " + form)
                        .doesNotContain("pw-s3cret")
                        .doesNotContain("\n"));
    }

    @Test
    void a_jdbc_url_is_taken_as_it_is() {
        assertThat(load("jdbc:postgresql://db:5432/topup").journal().url()).isEqualTo("jdbc:postgresql://db:5432/topup");
        assertThat(load("").journal().url()).isNull();
    }
}
