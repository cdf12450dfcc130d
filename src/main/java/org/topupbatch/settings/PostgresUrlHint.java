package org.topupbatch.settings;


import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognizes a libpq-style {@code postgres://} or {@code postgresql://} URL (what hosting panels
 * and {@code psql} hand out) where the journal needs a JDBC URL, and says which JDBC URL to give
 * instead. The password such a URL may carry is never repeated.
 */
public final class PostgresUrlHint {

    private static final Pattern LIBPQ = Pattern.compile(
            "(?i)postgres(?:ql)?://(?:([^:@/]*)(?::([^@/]*))?@)?([^/?]*)(/[^?]*)?(\\?.*)?");

    private PostgresUrlHint() {
    }

    /**
     * One line for a libpq URL given as {@code setting}, naming the setting and showing the JDBC
     * form; empty for anything else.
     */
    public static Optional<String> forUrl(String setting, String url) {
        if (url == null) {
            return Optional.empty();
        }
        Matcher m = LIBPQ.matcher(url.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        String user = m.group(1);
        boolean password = m.group(2) != null;
        String path = m.group(4) == null ? "/" : m.group(4);
        String query = m.group(5) == null ? "" : redact(m.group(5));
        String shown = url.trim().replaceFirst("(?i)(://[^:@/]*:)[^@/]*@", "$1***@");
        String jdbc = "jdbc:postgresql://" + m.group(3) + path + query;
        StringBuilder hint = new StringBuilder(setting + ": '" + redact(shown)
                + "' is not a JDBC URL; use " + setting + "=" + jdbc);
        if (user != null && !user.isEmpty()) {
            hint.append(" with topup.db.user=").append(user);
        }
        if (password) {
            hint.append(" and the password in topup.db.password");
        }
        return Optional.of(hint.toString());
    }

    /** A JDBC URL fit to show: any password in it replaced by {@code ***}. */
    public static String redact(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }
}
