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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.Poll;

/**
 * The built jar against a real OpenSSH sshd (Debian's openssh-server, started here on a loopback
 * port; the test fails, not skips, without it): a wrong password costs one failed login per poll
 * and then fewer and fewer, counted in sshd's own log, with one log line and health DOWN naming the
 * cause; an unknown host key stops a once-mode start with one line naming the known_hosts file and
 * the ssh-keyscan line that adds the key; a changed host key with the ssh-keygen -R and ssh-keyscan
 * lines; a key the server refuses with one line naming topup.sftp.private-key-file and at most two
 * failed logins; a server going down and coming back in watch mode with one line each and health
 * DOWN then UP (the first pause after a failure is 10 s, so recovery is seen about 10 s later).
 */
class SftpPoliteE2ETest {

    static final Path SSHD = Path.of("/usr/sbin/sshd");

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
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
                // relative folders start here, not in the login user's home (root's, when the tests run as root)
                "Subsystem sftp internal-sftp -d " + Files.createDirectories(home.resolve("sftp-root")),
                // publickey failures are logged at VERBOSE only, password failures at INFO
                "LogLevel VERBOSE",
                "MaxStartups 100",
                "") );
        // sshd's privilege separation directory, normally made by the ssh service's start
        Files.createDirectories(Path.of("/run/sshd"));
        port = FreePorts.pick();
        sshdLog = home.resolve("sshd.log");
        startSshd();
        run = product.node("node");
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
        // a user sshd knows is not needed: a wrong password for a user that does not exist is logged as one
        run.env.put("TOPUP_INBOX", "sftp://nobody-topup@127.0.0.1:" + port + "/inbox");
        run.env.put("TOPUP_SFTP_PASSWORD", "not-the-password");
    }

    /** Starts sshd on {@link #port}, appending to its log; returns when it listens. */
    void startSshd() throws Exception {
        long before = sshdLogText().lines().filter(l -> l.contains("Server listening")).count();
        sshd = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", home.resolve("sshd/sshd_config").toString(),
                "-p", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(sshdLog.toFile())).start();
        if (Poll.atMost(Duration.ofSeconds(10), this::sshdLogText,
                t -> t.lines().filter(l -> l.contains("Server listening")).count() > before)
                .lines().filter(l -> l.contains("Server listening")).count() <= before) {
            throw new AssertionError("sshd did not start: " + sshdLogText());
        }
    }

    /** Stops sshd and the sessions it forked (as a server going down would): open connections break too. */
    void stopSshd() throws Exception {
        if (sshd != null) {
            List<ProcessHandle> sessions = sshd.descendants().toList();
            sshd.destroy();
            sshd.waitFor(5, TimeUnit.SECONDS);
            sessions.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (run != null) {
            run.kill();
        }
        stopSshd();
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

    @Test
    void a_changed_host_key_stops_a_once_run_with_the_keygen_and_keyscan_lines() throws Exception {
        Path knownHosts = home.resolve("known_hosts");
        Path other = home.resolve("other_host_key");
        exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other.toString());
        String[] otherKey = Files.readString(home.resolve("other_host_key.pub")).trim().split(" ");
        Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + otherKey[0] + " " + otherKey[1] + "\n");
        run.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", knownHosts.toString());
        long started = System.nanoTime();
        assertThat(run.runOnce(Duration.ofMinutes(1))).as(run.output()).isEqualTo(1);
        System.out.printf("changed host key, once run: %.1f s%n", (System.nanoTime() - started) / 1e9);
        String output = run.output();
        String file = knownHosts.toAbsolutePath().toString();
        List<String> lines = output.lines().filter(l -> l.contains("differs from the one in the known_hosts file " + file)).toList();
        assertThat(lines).as(output).hasSize(1);
        assertThat(lines.get(0)).contains("host key for [127.0.0.1]:" + port)
                .containsSubsequence("ssh-keygen -R '[127.0.0.1]:" + port + "' -f " + file,
                        "ssh-keyscan -p " + port + " 127.0.0.1 >> " + file);
        assertThat(output).doesNotContain("\tat ").doesNotContain("not-the-password");
        assertThat(failedLogins()).isZero(); // the server was never sent the password
    }

    @Test
    void a_key_the_server_does_not_accept_stops_a_once_run_with_one_line_and_at_most_two_failed_logins() throws Exception {
        Path knownHosts = home.resolve("known_hosts");
        Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + hostKey() + "\n");
        Path key = home.resolve("id_ed25519");
        exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString()); // not in authorized_keys
        String user = System.getProperty("user.name");
        run.env.remove("TOPUP_SFTP_PASSWORD");
        run.env.put("TOPUP_INBOX", "sftp://" + user + "@127.0.0.1:" + port + "/inbox");
        run.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", knownHosts.toString());
        run.env.put("TOPUP_SFTP_PRIVATE_KEY_FILE", key.toString());
        long started = System.nanoTime();
        assertThat(run.runOnce(Duration.ofMinutes(1))).as(run.output()).isEqualTo(1);
        System.out.printf("refused key, once run: %.1f s, failed logins in sshd's log: %d%n",
                (System.nanoTime() - started) / 1e9, failedLogins());
        String output = run.output();
        List<String> lines = output.lines().filter(l -> l.contains("refused the login of user " + user)).toList();
        assertThat(lines).as(output).hasSize(1);
        assertThat(lines.get(0)).contains("topup.sftp.private-key-file").contains(key.toAbsolutePath().toString())
                .contains("authorized_keys");
        assertThat(output).doesNotContain("\tat ");
        assertThat(failedLogins()).as(sshdLogText()).isBetween(1L, 2L);
    }

    @Test
    void a_server_down_and_back_in_watch_mode_gives_one_line_each_and_health_down_then_up() throws Exception {
        Path knownHosts = home.resolve("known_hosts");
        Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + hostKey() + "\n");
        Path key = home.resolve("id_ed25519");
        exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString());
        Files.copy(home.resolve("id_ed25519.pub"), home.resolve("sshd/authorized_keys"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(home.resolve("sftp-root/inbox"));
        run.env.remove("TOPUP_SFTP_PASSWORD");
        run.env.put("TOPUP_INBOX", "sftp://" + System.getProperty("user.name") + "@127.0.0.1:" + port + "/inbox");
        run.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", knownHosts.toString());
        run.env.put("TOPUP_SFTP_PRIVATE_KEY_FILE", key.toString());
        String up = "\"name\":\"sftp-inbox\",\"status\":\"UP\"";
        String down = "\"name\":\"sftp-inbox\",\"status\":\"DOWN\"";
        run.start();
        String health = Poll.atMost(Duration.ofSeconds(40), this::health, h -> h.contains(up));
        assertThat(health).as(health + "\n" + run.output()).contains(up);
        // a poll that worked: the consumer holds a connection now
        Poll.atMost(Duration.ofSeconds(10), this::sshdLogText, t -> t.contains("Accepted publickey"));

        long stopped = System.nanoTime();
        stopSshd();
        health = Poll.atMost(Duration.ofSeconds(15), this::health, h -> h.contains(down));
        double downAfter = (System.nanoTime() - stopped) / 1e9;
        assertThat(health).as(health + "\n" + run.output()).contains(down);
        List<String> broken = run.output().lines().filter(l -> l.contains("cannot be used")).toList();
        assertThat(broken).as(run.output()).hasSize(1);
        // the reason, explained: the connection the consumer held (or was opening) broke, or connection refused
        String reason = broken.get(0).replaceAll(".*cannot be used: (.*) \\(tried again.*", "$1");
        assertThat(reason).as("an explained reason, not JSch's or the JVM's own words")
                .matches("the connection to 127\\.0\\.0\\.1:" + port + " broke .*|nothing answers at 127\\.0\\.0\\.1:" + port + " .*");
        assertThat(checkMessage(health, "sftp-inbox")).as(health).isEqualTo(reason);

        long restarted = System.nanoTime();
        startSshd();
        // the first pauses after a failure: 10 s, then 20 s; the next attempt comes within about 15 s
        health = Poll.atMost(Duration.ofSeconds(25), this::health, h -> h.contains(up));
        double upAfter = (System.nanoTime() - restarted) / 1e9;
        System.out.printf("server down: health DOWN after %.1f s; back: health UP after %.1f s%n", downAfter, upAfter);
        String output = run.output();
        assertThat(health).as(health + "\n" + output).contains(up);
        assertThat(output.lines().filter(l -> l.contains("can be used again")).toList()).as(output).hasSize(1);
        assertThat(output.lines().filter(l -> l.contains("cannot be used")).toList()).as(output).hasSize(1);
        assertThat(output).doesNotContain("\tat com.jcraft").doesNotContain("\tat org.apache");
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

    /** The message of one check in the health answer, as its JSON says it (escapes undone). */
    static String checkMessage(String health, String check) throws IOException {
        for (com.fasterxml.jackson.databind.JsonNode c : new com.fasterxml.jackson.databind.ObjectMapper().readTree(health).path("checks")) {
            if (check.equals(c.path("name").asText())) {
                return c.path("message").asText(null);
            }
        }
        return null;
    }

    String health() {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + run.env.get("TOPUP_MANAGEMENT_PORT") + "/observe/health?exposureLevel=full")).build(),
                    HttpResponse.BodyHandlers.ofString());
            // Camel 4.18's health JSON writes '/' as the (equal) JSON escape '\/': compared as the text it stands for
            return r.body().replace("\\/", "/");
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
