package org.topupbatch.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import com.jcraft.jsch.JSchException;
import java.nio.file.Path;
import java.util.List;
import org.apache.camel.component.file.GenericFileOperationFailedException;
import org.junit.jupiter.api.Test;
import org.topupbatch.settings.SftpFolder;
import org.topupbatch.settings.SftpLogin;

/**
 * The one line an operator gets for each way the server cannot be used: the cause and what to do.
 * The messages are JSch's as camel-ftp wraps them; the same lines against real servers:
 * SftpPoliteE2ETest (OpenSSH) and SftpPoliteEmbeddedE2ETest (Apache MINA SSHD).
 */
class SftpAccessTest {

    static final String SECRET = "Kata&Sandi#2026";
    final SftpFolder folder = SftpFolder.parse("topup.inbox", "sftp://erp@files.example.com:2222/out").orElseThrow();
    final SftpLogin password = new SftpLogin(SECRET, null, Path.of("/etc/topup-batch/known_hosts"), true);

    static Exception camelFtp(String jschMessage) {
        return new GenericFileOperationFailedException("Cannot connect to sftp://erp@files.example.com:2222/out",
                new JSchException(jschMessage));
    }

    String explain(SftpLogin login, String jschMessage) {
        return new SftpAccess("inbox", folder, login).explain(camelFtp(jschMessage));
    }

    @Test
    void a_broken_connection_says_what_to_check() {
        assertThat(explain(password, "session is down")).isEqualTo("the connection to files.example.com:2222 broke "
                + "(the server or the network closed it): is the SFTP server running, are the host and port right, and "
                + "does the network between here and there let the connection through (firewall, VPN)?");
        // the same break met at other moments: JSch reading from a closed socket, or the server's end gone
        for (String lost : List.of("inputstream is closed", "channel is broken", "End of IO Stream Read",
                "java.net.SocketException: Connection reset", "java.io.IOException: Pipe closed")) {
            assertThat(explain(password, lost)).as(lost).isEqualTo(explain(password, "session is down"));
        }
        // the server gone while camel-ftp opened its channel: the JVM's words about a channel never opened
        Exception noChannel = new GenericFileOperationFailedException("Cannot connect to sftp://erp@files.example.com:2222/out",
                new NullPointerException("Cannot invoke \"com.jcraft.jsch.ChannelSftp.connect(int)\" because \"this.channel\" is null"));
        assertThat(new SftpAccess("inbox", folder, password).explain(noChannel))
                .isEqualTo(explain(password, "session is down"));
        assertThat(explain(password, "java.net.ConnectException: Connection refused")).isEqualTo(
                "nothing answers at files.example.com:2222 (connection refused): is the SFTP server running, and are "
                        + "the host and port right?");
    }

    @Test
    void a_refused_login_names_the_setting_and_never_the_password() {
        assertThat(explain(password, "Auth fail for methods 'password'")).isEqualTo("the server refused the login of "
                + "user erp with the password in topup.sftp.password (TOPUP_SFTP_PASSWORD); check the user and the password")
                .doesNotContain("Kata");
        SftpLogin key = new SftpLogin(null, Path.of("/etc/topup-batch/id_ed25519"), null, true);
        assertThat(explain(key, "Auth fail for methods 'publickey'")).contains("with the key in topup.sftp.private-key-file "
                + "(TOPUP_SFTP_PRIVATE_KEY_FILE) /etc/topup-batch/id_ed25519 (is its public key in that user's authorized_keys?)");
    }

    @Test
    void a_host_key_problem_names_the_known_hosts_file_and_the_commands() {
        assertThat(explain(password, "reject HostKey: [files.example.com]:2222")).isEqualTo("the server's host key for "
                + "[files.example.com]:2222 is not in the known_hosts file /etc/topup-batch/known_hosts; after checking it "
                + "is the right server, add it with: ssh-keyscan -p 2222 files.example.com >> /etc/topup-batch/known_hosts");
        assertThat(explain(password, "HostKey has been changed: [files.example.com]:2222")).contains("differs from the one "
                + "in the known_hosts file /etc/topup-batch/known_hosts").contains("ssh-keygen -R '[files.example.com]:2222' "
                + "-f /etc/topup-batch/known_hosts && ssh-keyscan -p 2222 files.example.com >> /etc/topup-batch/known_hosts");
    }

    @Test
    void an_unknown_failure_is_passed_on_without_the_password() {
        assertThat(explain(password, "something else password=" + SECRET)).isEqualTo("something else password=xxxxxx");
    }

    @Test
    void health_is_down_with_the_reason_until_an_attempt_works() {
        SftpAccess access = new SftpAccess("inbox", folder, password);
        assertThat(access.problem()).isNull();
        String reason = access.failed(camelFtp("session is down"));
        assertThat(access.problem()).isEqualTo(reason).startsWith("the connection to files.example.com:2222 broke");
        access.worked();
        assertThat(access.problem()).isNull();
    }
}
