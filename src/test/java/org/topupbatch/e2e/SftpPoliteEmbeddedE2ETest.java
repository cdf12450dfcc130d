package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.List;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.SftpServer;
import org.topupbatch.testing.SftpServer.Attempt;

/**
 * The failures of SftpPoliteE2ETest (OpenSSH) against the embedded server (Apache MINA SSHD in this
 * JVM), which counts every login attempt itself. One product process in watch mode goes through a
 * wrong password (one refused login per attempt, the pauses doubling: 2 refused logins in 30 s),
 * the password then set right on the server, the server stopped and started again: one log line
 * each time it breaks and each time it works again, health DOWN with the reason in between. While
 * it waits out its pauses, once-mode starts run beside it, each ending with exit 1 and one line
 * with cause and remedy: an unknown host key, a changed host key (neither sends the password), a
 * key the server refuses (at most two refused logins), and the server down.
 */
class SftpPoliteEmbeddedE2ETest {

    /** What the product sends; the server's password is another one until the test sets it right. */
    static final String PRODUCT_PASSWORD = "Salah&Sandi#1";
    static final String UP = "\"name\":\"sftp-inbox\",\"status\":\"UP\"";
    static final String DOWN = "\"name\":\"sftp-inbox\",\"status\":\"DOWN\"";

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    SftpServer server;
    JarRun watch;

    @BeforeEach
    void start() throws Exception {
        server = SftpServer.start(home.resolve("server"), home.resolve("server-keys"), "the-right-one");
        Files.createDirectories(server.home().resolve("inbox"));
        watch = run("watch", SftpServer.USER);
        watch.env.put("TOPUP_SFTP_PASSWORD", PRODUCT_PASSWORD);
    }

    @AfterEach
    void stop() throws Exception {
        if (watch != null) {
            watch.kill(); // before its server goes
        }
        if (server != null) {
            server.close();
        }
    }

    /** A product with its inbox on the server as {@code user}, checking the server's real host key. */
    JarRun run(String name, String user) throws Exception {
        JarRun run = product.node(name);
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
        run.env.put("TOPUP_INBOX", server.uri(user, "inbox"));
        run.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", server.knownHosts().toString());
        run.env.put("TOPUP_SFTP_PASSWORD", PRODUCT_PASSWORD);
        return run;
    }

    @Test
    void watch_mode_is_polite_through_a_wrong_password_and_a_server_down_and_once_mode_says_why_in_one_line()
            throws Exception {
        long started = System.nanoTime();
        watch.start();
        String health = Poll.atMost(Duration.ofSeconds(40), this::health, h -> h.contains(DOWN));
        assertThat(health).as(health + "\n" + watch.output()).contains(DOWN)
                .contains("refused the login of user erp with the password in topup.sftp.password");
        // the second attempt comes after a pause of 10 s (twice the poll delay), not at the next poll
        Poll.until("a second refused login", Duration.ofSeconds(20), () -> refusedPasswords().size() >= 2);
        // the operator sets the password on the server to the one the product has
        server.password(PRODUCT_PASSWORD);
        long fixed = System.nanoTime();

        // meanwhile (the next attempt is 20 s after the second): once-mode starts beside it
        onceWithAnUnknownHostKey();
        onceWithAChangedHostKey();
        onceWithAKeyTheServerRefuses();

        health = Poll.atMost(Duration.ofSeconds(40), this::health, h -> h.contains(UP));
        assertThat(health).as(health + "\n" + watch.output()).contains(UP);
        List<Attempt> refused = refusedPasswords();
        Attempt accepted = server.attempts().stream().filter(a -> a.user().equals("erp") && a.accepted()).findFirst()
                .orElseThrow();
        double firstPause = (refused.get(1).nanoTime() - refused.get(0).nanoTime()) / 1e9;
        double secondPause = (accepted.nanoTime() - refused.get(1).nanoTime()) / 1e9;
        System.out.printf("wrong password in watch mode: %d refused logins in %.1f s (pauses %.1f s, %.1f s); "
                        + "UP %.1f s after the password was set right%n", refused.size(),
                (accepted.nanoTime() - refused.get(0).nanoTime()) / 1e9, firstPause, secondPause,
                (System.nanoTime() - fixed) / 1e9);
        // before the back-off: 209 failed passwords in 94 s against OpenSSH
        assertThat(refused).as("refused logins of the watch").hasSize(2);
        // 10 s, then 20 s (the back-off doubling), each plus a failed poll and a key exchange: the bounds tell the
        // doublings apart (not the next poll, not the next doubling) with room for a loaded machine's slow logins
        assertThat(firstPause).as("first pause, s").isGreaterThanOrEqualTo(9.0).isLessThan(19.0);
        assertThat(secondPause).as("second pause, s").isGreaterThanOrEqualTo(19.0).isLessThan(39.0);
        assertThat(lines(watch, "cannot be used")).as(watch.output()).hasSize(1);
        assertThat(lines(watch, "can be used again")).as(watch.output()).hasSize(1);

        // the server goes down: open connections break, new ones are refused
        server.stop();
        long stopped = System.nanoTime();
        health = Poll.atMost(Duration.ofSeconds(15), this::health, h -> h.contains(DOWN));
        double downAfter = (System.nanoTime() - stopped) / 1e9;
        assertThat(health).as(health + "\n" + watch.output()).contains(DOWN);
        List<String> broken = lines(watch, "cannot be used");
        assertThat(broken).as(watch.output()).hasSize(2);
        String reason = broken.get(1).replaceAll(".*cannot be used: (.*) \\(tried again.*", "$1");
        assertThat(reason).contains("127.0.0.1:" + server.port()).contains("is the SFTP server running");
        assertThat(health).contains(DOWN + ",\"message\":\"" + reason + "\"");
        onceWithTheServerDown();

        server.restart();
        long restarted = System.nanoTime();
        // the first pause after a failure is 10 s
        health = Poll.atMost(Duration.ofSeconds(25), this::health, h -> h.contains(UP));
        System.out.printf("server down: health DOWN after %.1f s (%s); back: UP after %.1f s; the whole test %.1f s%n",
                downAfter, reason, (System.nanoTime() - restarted) / 1e9, (System.nanoTime() - started) / 1e9);
        String output = watch.output();
        output.lines().filter(l -> l.contains("SftpAccess")).forEach(System.out::println);
        assertThat(health).as(health + "\n" + output).contains(UP);
        assertThat(lines(watch, "can be used again")).as(output).hasSize(2);
        assertThat(lines(watch, "cannot be used")).as(output).hasSize(2);
        assertThat(output).doesNotContain(PRODUCT_PASSWORD).doesNotContain("Sandi")
                .doesNotContain("\tat com.jcraft").doesNotContain("\tat org.apache");
    }

    /** No known_hosts line for the server: exit 1, the file and the ssh-keyscan line; the password is never sent. */
    void onceWithAnUnknownHostKey() throws Exception {
        JarRun once = run("unknown-host-key", "nobody-a");
        Path knownHosts = Files.writeString(home.resolve("empty_known_hosts"), "");
        once.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", knownHosts.toString());
        String file = knownHosts.toAbsolutePath().toString();
        List<String> lines = onceFails(once, "is not in the known_hosts file " + file);
        assertThat(lines.get(0)).contains("host key for [127.0.0.1]:" + server.port())
                .contains("ssh-keyscan -p " + server.port() + " 127.0.0.1 >> " + file);
        assertThat(attemptsOf("nobody-a")).isEmpty();
    }

    /** Another key of the same type for [127.0.0.1]:port: exit 1, ssh-keygen -R and ssh-keyscan; the password is never sent. */
    void onceWithAChangedHostKey() throws Exception {
        JarRun once = run("changed-host-key", "nobody-b");
        PublicKey real = server.hostKey();
        PublicKey other = KeyUtils.generateKeyPair(KeyUtils.getKeyType(real), KeyUtils.getKeySize(real)).getPublic();
        Path knownHosts = Files.writeString(home.resolve("other_known_hosts"), server.knownHostsLine(other));
        once.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", knownHosts.toString());
        String file = knownHosts.toAbsolutePath().toString();
        List<String> lines = onceFails(once, "differs from the one in the known_hosts file " + file);
        assertThat(lines.get(0)).contains("host key for [127.0.0.1]:" + server.port())
                .containsSubsequence("ssh-keygen -R '[127.0.0.1]:" + server.port() + "' -f " + file,
                        "ssh-keyscan -p " + server.port() + " 127.0.0.1 >> " + file);
        assertThat(attemptsOf("nobody-b")).isEmpty();
    }

    /** A key the server does not accept for erp: exit 1, the setting, the file and authorized_keys; one or two refused logins. */
    void onceWithAKeyTheServerRefuses() throws Exception {
        JarRun once = run("refused-key", SftpServer.USER);
        KeyPair pair = KeyUtils.generateKeyPair("ecdsa-sha2-nistp256", 256);
        Path key = home.resolve("id_ecdsa");
        try (OutputStream out = Files.newOutputStream(key)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(pair, "not authorized", null, out);
        }
        once.env.remove("TOPUP_SFTP_PASSWORD");
        once.env.put("TOPUP_SFTP_PRIVATE_KEY_FILE", key.toString());
        List<String> lines = onceFails(once, "refused the login of user erp");
        assertThat(lines.get(0)).contains("topup.sftp.private-key-file").contains(key.toAbsolutePath().toString())
                .contains("authorized_keys");
        List<Attempt> keys = attemptsOf(SftpServer.USER).stream().filter(a -> a.method().equals("publickey")).toList();
        System.out.printf("refused key, once run: %d refused logins at the server%n", keys.size());
        assertThat(keys).as("logins with the key").hasSizeBetween(1, 2).noneMatch(Attempt::accepted);
    }

    /** Nothing listens on the port: exit 1, connection refused and what to check. */
    void onceWithTheServerDown() throws Exception {
        JarRun once = run("server-down", SftpServer.USER);
        List<String> lines = onceFails(once, "nothing answers at 127.0.0.1:" + server.port() + " (connection refused)");
        assertThat(lines.get(0)).contains("is the SFTP server running, and are the host and port right?");
    }

    /** Runs once mode, which must end with exit 1 and exactly one line containing {@code text}, without a stack trace or the password. */
    List<String> onceFails(JarRun once, String text) throws Exception {
        long started = System.nanoTime();
        int exit = once.runOnce(Duration.ofMinutes(1));
        String output = once.output();
        System.out.printf("once run, %s: exit %d after %.1f s%n", once.home.getFileName(), exit, (System.nanoTime() - started) / 1e9);
        assertThat(exit).as(output).isEqualTo(1);
        List<String> lines = lines(once, text);
        assertThat(lines).as(output).hasSize(1);
        assertThat(lines.get(0)).contains("topup-batch cannot start: the inbox sftp://");
        assertThat(output).doesNotContain("\tat ").doesNotContain(PRODUCT_PASSWORD).doesNotContain("Sandi");
        return lines;
    }

    List<Attempt> refusedPasswords() {
        return server.refused(SftpServer.USER).stream().filter(a -> a.method().equals("password")).toList();
    }

    List<Attempt> attemptsOf(String user) {
        return server.attempts().stream().filter(a -> a.user().equals(user)).toList();
    }

    static List<String> lines(JarRun run, String text) {
        return run.output().lines().filter(l -> l.contains(text)).toList();
    }

    String health() {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + watch.env.get("TOPUP_MANAGEMENT_PORT") + "/observe/health?exposureLevel=full")).build(),
                    HttpResponse.BodyHandlers.ofString());
            // Camel 4.18's health JSON writes '/' as the (equal) JSON escape '\/': compared as the text it stands for
            return r.body().replace("\\/", "/");
        } catch (Exception e) {
            return "";
        }
    }
}
