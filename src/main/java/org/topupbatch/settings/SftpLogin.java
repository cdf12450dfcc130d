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

    public static SftpLogin load(Function<String, String> optional) {
        String password = optional.apply("topup.sftp.password");
        Path key = file(optional, "topup.sftp.private-key-file");
        Path knownHosts = file(optional, "topup.sftp.known-hosts-file");
        String strict = optional.apply("topup.sftp.strict-host-key-checking");
        boolean strictChecking = true;
        if (strict != null) {
            strictChecking = switch (strict.toLowerCase(Locale.ROOT)) {
                case "yes", "true" -> true;
                case "no", "false" -> false;
                default -> throw new SettingsException("topup.sftp.strict-host-key-checking: '" + strict + "' is neither yes nor no");
            };
        }
        if (password == null && key == null) {
            throw new SettingsException("topup.sftp.password: an sftp:// inbox or reports folder needs a password "
                    + "(TOPUP_SFTP_PASSWORD) or a private key file (TOPUP_SFTP_PRIVATE_KEY_FILE)");
        }
        return new SftpLogin(password, key, knownHosts, strictChecking);
    }

    private static Path file(Function<String, String> optional, String key) {
        String v = optional.apply(key);
        if (v == null) {
            return null;
        }
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
