package org.topupbatch.settings;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import org.topupbatch.settings.SettingsException;

/**
 * A folder on an SFTP server given as {@code topup.inbox} or {@code topup.reports}
 * ({@code sftp://user@host[:port]/path[?camel-ftp options]}). The address carries no secret:
 * the password and key come from {@link SftpLogin}, so this folder can be shown anywhere.
 */
public record SftpFolder(String user, String host, int port, String path, String options) {

    /** The folder when {@code value} is an {@code sftp://} address, empty when it is a local path. */
    public static Optional<SftpFolder> parse(String key, String value) {
        if (value == null || !value.toLowerCase(Locale.ROOT).startsWith("sftp://")) {
            return Optional.empty();
        }
        String afterScheme = value.substring("sftp://".length());
        int at = afterScheme.indexOf('@');
        if (at > 0 && afterScheme.substring(0, at).contains(":") && !afterScheme.substring(0, at).contains("/")) {
            throw new SettingsException(key + ": put the SFTP password in topup.sftp.password (TOPUP_SFTP_PASSWORD), "
                    + "not in the address");
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw new SettingsException(key + ": '" + shown(value) + "' is not an sftp://user@host:port/folder address ("
                    + e.getReason() + ")");
        }
        String userInfo = uri.getRawUserInfo();
        String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        if (query.toLowerCase(Locale.ROOT).matches("(.*&)?(password|privatekeypassphrase|privatekey)=.*")) {
            throw new SettingsException(key + ": put SFTP secrets in topup.sftp.password or topup.sftp.private-key-file, "
                    + "not in the address");
        }
        if (userInfo == null || userInfo.isBlank() || uri.getHost() == null) {
            throw new SettingsException(key + ": '" + shown(value) + "' needs a user and a host: sftp://user@host:port/folder");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (path.isEmpty() || path.equals("/")) {
            throw new SettingsException(key + ": '" + shown(value) + "' names no folder: sftp://user@host:port/folder");
        }
        return Optional.of(new SftpFolder(userInfo, uri.getHost(), uri.getPort() < 0 ? 22 : uri.getPort(),
                path.substring(1), query));
    }

    /** A value that failed to parse is shown without anything after '@' user part that might be a password. */
    private static String shown(String value) {
        return value.replaceAll("//[^/@]*:[^/@]*@", "//***@").replaceAll("(?i)(password=)[^&]*", "$1xxxxxx");
    }

    /**
     * The camel-ftp endpoint address: this folder, the login, the user's own options, then ours
     * (which win when both set one).
     */
    public String endpointUri(SftpLogin login, String ourOptions) {
        StringBuilder uri = new StringBuilder("sftp://").append(user).append('@').append(host).append(':').append(port)
                .append('/').append(path).append('?');
        if (!options.isEmpty()) {
            uri.append(options).append('&');
        }
        uri.append(login.endpointOptions());
        if (!ourOptions.isEmpty()) {
            uri.append('&').append(ourOptions);
        }
        return uri.toString();
    }

    /** Where the folder is, for logs and messages: no options, no secrets. */
    @Override
    public String toString() {
        return "sftp://" + user + "@" + host + ":" + port + "/" + path;
    }
}
