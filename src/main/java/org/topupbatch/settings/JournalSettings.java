package org.topupbatch.settings;

import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Where the journal is: an embedded H2 under topup.data, or a database at a JDBC URL.
 *
 * @param url      null: embedded H2
 * @param password never shown
 */
public record JournalSettings(String url, String user, String password) {

    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    static final Setting<String> URL = Setting.of("topup.db.url", null,
            "JDBC URL of the journal", JournalSettings::jdbcUrl);
    static final Setting<String> USER = Setting.of("topup.db.user", null,
            "journal database user", SettingChecks::text);
    static final Setting<String> PASSWORD = Setting.of("topup.db.password", null,
            "its password", SettingChecks::text);

    /** PostgreSQL keeps 63 bytes of a session's name, and the session's name is prefixed. */
    public static final int NODE_NAME_MAX_LENGTH = 40;
    /** With two nodes on one PostgreSQL journal it names the node's journal session (cluster's NodeName reads it). */
    public static final Setting<String> NODE_NAME = Setting.of("topup.node-name", null,
            "this node's name", JournalSettings::nodeName);

    static final List<Setting<?>> DECLARED = List.of(URL, USER, PASSWORD, NODE_NAME);

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

    /** A plain word, short enough to name a PostgreSQL session. */
    private static String nodeName(String key, String v) {
        if (v.length() > NODE_NAME_MAX_LENGTH || !PLAIN_NAME.matcher(v).matches()) {
            throw new SettingsException(key + " '" + v + "' must be 1 to " + NODE_NAME_MAX_LENGTH
                    + " letters, digits, '.', '_' or '-' (set TOPUP_NODE_NAME, e.g. topup-a)");
        }
        return v;
    }

    /** A libpq {@code postgres://} URL is a common slip: say which JDBC URL to give instead. */
    private static String jdbcUrl(String key, String v) {
        PostgresUrlHint.forUrl(key, v).ifPresent(hint -> {
            throw new SettingsException(hint);
        });
        return v;
    }
}
