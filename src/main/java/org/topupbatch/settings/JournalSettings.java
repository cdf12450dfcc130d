package org.topupbatch.settings;

import java.util.List;
import java.util.function.Function;

/**
 * Where the journal is: an embedded H2 under topup.data, or a database at a JDBC URL.
 *
 * @param url      null: embedded H2
 * @param password never shown
 */
public record JournalSettings(String url, String user, String password) {

    static final Setting<String> URL = Setting.of("topup.db.url", null,
            "JDBC URL of the journal", JournalSettings::jdbcUrl);
    static final Setting<String> USER = Setting.of("topup.db.user", null,
            "journal database user", SettingChecks::text);
    static final Setting<String> PASSWORD = Setting.of("topup.db.password", null,
            "its password", SettingChecks::text);

    static final List<Setting<?>> DECLARED = List.of(URL, USER, PASSWORD);

    static JournalSettings load(Function<String, String> lookup) {
        return new JournalSettings(URL.read(lookup), USER.read(lookup), PASSWORD.read(lookup));
    }

    /** Whether the journal is the embedded H2 under topup.data. */
    public boolean embedded() {
        return url == null;
    }

    @Override
    public String toString() {
        return "JournalSettings[" + (url == null ? "(embedded H2)" : url) + ", user=" + user + "]";
    }

    /** A libpq {@code postgres://} URL is a common slip: say which JDBC URL to give instead. */
    private static String jdbcUrl(String key, String v) {
        PostgresUrlHint.forUrl(key, v).ifPresent(hint -> {
            throw new SettingsException(hint);
        });
        return v;
    }
}
