package org.topupbatch.settings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;
import org.topupbatch.settings.SettingsException;

/**
 * How the product logs in to its SFTP server and knows it is the right one: a password
 * ({@code topup.sftp.password}) or a private key file, and the server's host key checked against
 * a known_hosts file unless {@code topup.sftp.strict-host-key-checking} is {@code no}.
 * The password never leaves this class except inside an endpoint address, which Camel masks.
 */
public record SftpLogin(String password, Path privateKeyFile, Path knownHostsFile, boolean strictHostKeyChecking) {

    static final Setting<String> PASSWORD = Setting.of("topup.sftp.password", null,
            "password of the SFTP user", SettingChecks::text);
    static final Setting<Path> PRIVATE_KEY_FILE = Setting.of("topup.sftp.private-key-file", null,
            "a private key file (OpenSSH format) to log in with instead of a password", SftpLogin::file);
    static final Setting<Path> KNOWN_HOSTS_FILE = Setting.of("topup.sftp.known-hosts-file", null,
            "the known_hosts file the server's host key is checked against", SftpLogin::file);
    static final Setting<Boolean> STRICT_HOST_KEY_CHECKING = Setting.of("topup.sftp.strict-host-key-checking", "yes",
            "no accepts any host key", SftpLogin::yesOrNo);

    static final java.util.List<Setting<?>> DECLARED = java.util.List.of(PASSWORD, PRIVATE_KEY_FILE, KNOWN_HOSTS_FILE,
            STRICT_HOST_KEY_CHECKING);

    public static SftpLogin load(Function<String, String> optional) {
        String password = PASSWORD.read(optional);
        Path key = PRIVATE_KEY_FILE.read(optional);
        Path knownHosts = KNOWN_HOSTS_FILE.read(optional);
        boolean strictChecking = STRICT_HOST_KEY_CHECKING.read(optional);
        if (password == null && key == null) {
            throw new SettingsException("topup.sftp.password: an sftp:// inbox or reports folder needs a password "
                    + "(TOPUP_SFTP_PASSWORD) or a private key file (TOPUP_SFTP_PRIVATE_KEY_FILE)");
        }
        return new SftpLogin(password, key, knownHosts, strictChecking);
    }

    private static boolean yesOrNo(String key, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "yes", "true" -> true;
            case "no", "false" -> false;
            default -> throw new SettingsException(key + ": '" + v + "' is neither yes nor no");
        };
    }

    private static Path file(String key, String v) {
        Path p = Path.of(v);
        if (!Files.isReadable(p)) {
            throw new SettingsException(key + ": " + p.toAbsolutePath() + " cannot be read");
        }
        return p;
    }

    /** The camel-ftp options of this login; secrets in RAW() so that no character of them is taken as syntax. */
    String endpointOptions() {
        StringBuilder o = new StringBuilder("strictHostKeyChecking=").append(strictHostKeyChecking ? "yes" : "no");
        // only the configured way of logging in, so one login is one attempt at the server (JSch
        // would otherwise also try keyboard-interactive with the same password)
        o.append("&preferredAuthentications=").append(privateKeyFile != null && password != null ? "publickey,password"
                : privateKeyFile != null ? "publickey" : "password");
        if (password != null) {
            o.append("&password=").append(raw(password));
        }
        if (privateKeyFile != null) {
            o.append("&privateKeyFile=").append(raw(privateKeyFile.toAbsolutePath().toString()));
        }
        if (knownHostsFile != null) {
            o.append("&knownHostsFile=").append(raw(knownHostsFile.toAbsolutePath().toString()))
                    .append("&useUserKnownHostsFile=false");
        }
        return o.toString();
    }

    private static String raw(String value) {
        return value.contains(")") ? "RAW{" + value + "}" : "RAW(" + value + ")";
    }

    /** A message from the SFTP library or Camel with any trace of the password replaced. */
    public String masked(String message) {
        if (message == null) {
            return "";
        }
        // the password itself first: the pattern below stops at '&', which would leave the rest of
        // a password with one in it (Camel's "Unknown parameters=[{password=...}]" shows it plain)
        String m = password == null || password.isEmpty() ? message : message.replace(password, "xxxxxx");
        return m.replaceAll("(?i)(password=)(RAW[({][^)}]*[)}]|[^&\\s,}\\]]*)", "$1xxxxxx");
    }

    @Override
    public String toString() {
        return "SftpLogin[" + (password != null ? "password" : "key " + privateKeyFile)
                + ", strictHostKeyChecking=" + strictHostKeyChecking + "]";
    }
}
