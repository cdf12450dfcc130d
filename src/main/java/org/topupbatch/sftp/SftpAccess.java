package org.topupbatch.sftp;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.settings.SftpFolder;
import org.topupbatch.settings.SftpLogin;

/**
 * Whether one SFTP folder (the inbox or the reports target) can be used right now, as the last
 * attempt found it: the readiness check {@code sftp-inbox} / {@code sftp-reports} of
 * /observe/health (DOWN with the reason while it cannot be used), and the only place that logs the
 * change, so an operator sees one line when it breaks and one when it works again, however often
 * it is tried in between.
 */
public final class SftpAccess extends AbstractHealthCheck {

    private static final Logger LOG = LoggerFactory.getLogger(SftpAccess.class);

    private final String role;
    private final SftpFolder folder;
    private final SftpLogin login;
    private volatile String problem; // null: usable (or not tried yet)

    public SftpAccess(String role, SftpFolder folder, SftpLogin login) {
        super("topup", "sftp-" + role);
        this.role = role;
        this.folder = folder;
        this.login = login;
    }

    /** The last attempt worked: logs the recovery once. */
    public void worked() {
        String was = problem;
        problem = null;
        if (was != null) {
            LOG.info("The SFTP {} {} can be used again", role, folder);
        }
    }

    /** The last attempt failed: logs the first failure (and a changed reason) once, no stack trace. Returns the reason. */
    public String failed(Throwable e) {
        String reason = explain(e);
        String was = problem;
        problem = reason;
        if (!reason.equals(was)) {
            LOG.error("The SFTP {} {} cannot be used: {} (tried again with growing pauses, up to 5 minutes apart)",
                    role, folder, reason);
        }
        return reason;
    }

    public String problem() {
        return problem;
    }

    @Override
    public boolean isLiveness() {
        return false; // the process is fine; it cannot do its work until the server lets it in
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        String p = problem;
        builder.detail("folder", folder.toString());
        if (p == null) {
            builder.up();
        } else {
            builder.message(p).down();
        }
    }

    /**
     * One line saying what is wrong and what to do, from what JSch and camel-ftp throw (their own
     * messages say "reject HostKey: [host]:port" or "Auth fail" and nothing about the remedy).
     * Never the password.
     */
    public String explain(Throwable e) {
        String root = InboxRelay.rootMessage(e);
        String lower = root.toLowerCase(Locale.ROOT);
        String hostPort = folder.port() == 22 ? folder.host() : "[" + folder.host() + "]:" + folder.port();
        String keyscan = "ssh-keyscan " + (folder.port() == 22 ? "" : "-p " + folder.port() + " ") + folder.host()
                + " >> " + knownHosts();
        String why;
        if (lower.contains("reject hostkey")) {
            why = "the server's host key for " + hostPort + " is not in the known_hosts file " + knownHosts()
                    + "; after checking it is the right server, add it with: " + keyscan;
        } else if (lower.contains("hostkey has been changed") || lower.contains("host key has been changed")) {
            why = "the server's host key for " + hostPort + " differs from the one in the known_hosts file " + knownHosts()
                    + " (a new server key, or another server); if the change is expected, replace it: ssh-keygen -R '"
                    + hostPort + "' -f " + knownHosts() + " && " + keyscan;
        } else if (lower.contains("auth fail") || lower.contains("auth cancel")) {
            why = "the server refused the login of user " + folder.user() + " with "
                    + (login.privateKeyFile() != null ? "the key in topup.sftp.private-key-file (TOPUP_SFTP_PRIVATE_KEY_FILE) "
                    + login.privateKeyFile().toAbsolutePath()
                    + " (is its public key in that user's authorized_keys?)"
                    : "the password in topup.sftp.password (TOPUP_SFTP_PASSWORD)")
                    + "; check the user and the " + (login.privateKeyFile() != null ? "key" : "password");
        } else if (lower.contains("connection refused")) {
            why = "nothing answers at " + folder.host() + ":" + folder.port()
                    + " (connection refused): is the SFTP server running, and are the host and port right?";
        } else if (CONNECTION_LOST.stream().anyMatch(lower::contains) || channelNeverOpened(lower)) {
            why = "the connection to " + folder.host() + ":" + folder.port()
                    + " broke (the server or the network closed it): is the SFTP server running, are the host and port"
                    + " right, and does the network between here and there let the connection through (firewall, VPN)?";
        } else {
            why = root;
        }
        return login.masked(why);
    }

    /**
     * JSch's and the JVM's words when the connection it held (or was opening) is gone: the server
     * stopped or dropped it, or the network between broke. Which one an operator sees depends on the
     * moment the server went (all seen against OpenSSH's sshd stopped under a running consumer).
     */
    private static final List<String> CONNECTION_LOST = List.of("session is down", "channel is down",
            "channel is broken", "channel is not opened", "inputstream is closed", "end of io stream read",
            "connection is closed by foreign host", "connection reset", "broken pipe",
            // java.io's piped streams, which JSch's channels read through
            "pipe closed", "pipe broken", "write end dead", "read end dead");

    /**
     * The server went away while camel-ftp opened its SFTP channel on a session it had just made: it
     * then calls on a channel JSch never gave it, and the only message is the JVM's own ("Cannot invoke
     * "com.jcraft.jsch.ChannelSftp.connect(int)" because "this.channel" is null"), which tells an
     * operator nothing (seen against OpenSSH's sshd stopped under a running consumer).
     */
    private static boolean channelNeverOpened(String lowerMessage) {
        return lowerMessage.contains("com.jcraft.jsch.channel") && lowerMessage.contains("is null");
    }

    /** The known_hosts file JSch reads: the configured one, else the user's own (camel-ftp's default). */
    Path knownHosts() {
        return login.knownHostsFile() != null ? login.knownHostsFile().toAbsolutePath()
                : Path.of(System.getProperty("user.home"), ".ssh", "known_hosts");
    }
}
