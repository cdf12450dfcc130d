package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.Poll;

/**
 * The built jar against a real OpenSSH sshd (Debian's openssh-server, started here on a loopback
 * port; the test fails, not skips, without it): a wrong password costs one failed login per poll
 * and then fewer and fewer, counted in sshd's own log, with one log line and health DOWN naming the
 * cause; an unknown host key stops a once-mode start with one line naming the known_hosts file and
 * the ssh-keyscan line that adds the key.
 */
class SftpPoliteE2ETest {

    static final Path SSHD = Path.of("/usr/sbin/sshd");

    @TempDir
    Path home;
    Path sshdLog;
    Process sshd;
    int port;
    JarRun run;

    @BeforeEach
    void start() throws Exception {
        if (!Files.isExecutable(SSHD)) {
            throw new AssertionError(SSHD + " is missing: install Debian's openssh-server (apt-get install openssh-server; .ci/run does)");
        }
        Path keys = Files.createDirectories(home.resolve("sshd"));
        exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", keys.resolve("host_key").toString());
        Files.writeString(keys.resolve("authorized_keys"), "");
        Path config = keys.resolve("sshd_config");
        Files.writeString(config, String.join("\n",
                "ListenAddress 127.0.0.1",
                "HostKey " + keys.resolve("host_key"),
                "PidFile none",
                "UsePAM no",
                "StrictModes no",
                "PasswordAuthentication yes",
                "KbdInteractiveAuthentication no",
                "AuthorizedKeysFile " + keys.resolve("authorized_keys"),
                "Subsystem sftp internal-sftp",
                "MaxStartups 100",
                "") );
        // sshd's privilege separation directory, normally made by the ssh service's start
        Files.createDirectories(Path.of("/run/sshd"));
        port = FreePorts.pick();
        sshdLog = home.resolve("sshd.log");
        sshd = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", config.toString(), "-p", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(sshdLog.toFile()).start();
        if (!Poll.atMost(Duration.ofSeconds(10), this::sshdLogText, t -> t.contains("Server listening")).contains("Server listening")) {
            throw new AssertionError("sshd did not start: " + sshdLogText());
        }
        run = new JarRun(home.resolve("node"));
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
        // a user sshd knows is not needed: a wrong password for a user that does not exist is logged as one
        run.env.put("TOPUP_INBOX", "sftp://nobody-topup@127.0.0.1:" + port + "/inbox");
        run.env.put("TOPUP_SFTP_PASSWORD", "not-the-password");
    }

    @AfterEach
    void stop() throws Exception {
        if (run != null) {
            run.kill();
        }
        if (sshd != null) {
            sshd.destroy();
            sshd.waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_wrong_password_costs_a_handful_of_failed_logins_one_log_line_and_health_down() throws Exception {
        Path knownHosts = home.resolve("known_hosts");
        Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + hostKey() + "\n");
        run.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", knownHosts.toString());
        run.start();
        String health = Poll.atMost(Duration.ofSeconds(40), this::health, h -> h.contains("\"name\":\"sftp-inbox\",\"status\":\"DOWN\""));
        long started = System.nanoTime();
        Thread.sleep(20_000); // the watch runs on with the wrong password; sshd counts what it costs
        long failed = failedLogins();
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("failed logins in sshd's log: %d in %.0f s of watch mode after health DOWN%n", failed, seconds);
        assertThat(health).as(health).contains("\"status\":\"DOWN\"")
                .contains("refused the login of user nobody-topup with the password in topup.sftp.password");
        // before: 209 failed passwords in 94 s (6 per connection, 4 connections per poll, no back-off)
        assertThat(failed).as(sshdLogText()).isBetween(1L, 4L);
        String output = run.output();
        List<String> errors = output.lines().filter(l -> l.contains("cannot be used")).toList();
        assertThat(errors).as(output).hasSize(1);
        assertThat(output).doesNotContain("not-the-password").doesNotContain("\tat com.jcraft").doesNotContain("\tat org.apache");
    }

    @Test
    void an_unknown_host_key_stops_a_once_run_with_the_known_hosts_file_and_the_keyscan_line() throws Exception {
        Path knownHosts = home.resolve("known_hosts");
        Files.writeString(knownHosts, "");
        run.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", knownHosts.toString());
        assertThat(run.runOnce(Duration.ofMinutes(1))).as(run.output()).isEqualTo(1);
        String output = run.output();
        assertThat(output).contains("is not in the known_hosts file " + knownHosts.toAbsolutePath())
                .contains("ssh-keyscan -p " + port + " 127.0.0.1 >> " + knownHosts.toAbsolutePath())
                .doesNotContain("\tat ");
        assertThat(failedLogins()).isZero(); // the server was never sent the password
    }

    String hostKey() throws IOException {
        String[] pub = Files.readString(home.resolve("sshd/host_key.pub")).trim().split(" ");
        return pub[0] + " " + pub[1];
    }

    long failedLogins() {
        return sshdLogText().lines().filter(l -> l.contains("Failed password") || l.contains("Failed publickey")).count();
    }

    String sshdLogText() {
        try {
            return Files.readString(sshdLog, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    String health() {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + run.env.get("TOPUP_MANAGEMENT_PORT") + "/observe/health?exposureLevel=full")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (Exception e) {
            return "";
        }
    }

    static void exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed: " + out);
        }
    }
}
