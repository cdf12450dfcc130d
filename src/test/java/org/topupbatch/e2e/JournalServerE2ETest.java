package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.h2.tools.Shell;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.BuiltJar;
import org.topupbatch.testing.Poll;

/**
 * The embedded journal's H2 server, as another local user meets it, on the built jar: the port in
 * {@code data/journal/server.port} refuses H2's admin with an empty password (H2's own Shell, as in
 * the probe, and plain JDBC), while {@code status} reads through it beside the running
 * product; the password lives in an owner-only file and reaches no output. A journal left by the
 * version before passwords (admin SA, empty password) opens after the upgrade with its batches.
 */
class JournalServerE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(SandboxConfig::defaults);
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    @Test
    void the_server_refuses_the_empty_admin_password_and_status_reads_beside_the_running_product() throws Exception {
        run.env.put("TOPUP_MODE", "watch");
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Ready:");
        run.drop("served.csv", "ref_id,product_sku,customer_no\nJS-1,STEAM45K,a@example.com\n");
        StartupRefusalE2ETest.awaitOutput(run, "served.csv");

        Path journal = run.data.resolve("journal");
        int port = Integer.parseInt(Files.readString(journal.resolve("server.port")).trim());
        String served = "jdbc:h2:tcp://127.0.0.1:" + port + "/file:" + journal.toAbsolutePath().resolve("journal");
        assertThatThrownBy(() -> Shell.main("-url", served, "-user", "sa", "-password", "",
                "-sql", "CREATE ALIAS PWN FOR \"java.lang.Runtime.getRuntime\""))
                .isInstanceOf(SQLException.class).hasMessageContaining("Wrong user name or password");
        assertThatThrownBy(() -> DriverManager.getConnection(served, "sa", "").close())
                .isInstanceOf(SQLException.class).hasMessageContaining("Wrong user name or password");

        String status = Poll.until("status naming the batch", Duration.ofSeconds(60),
                () -> BuiltJar.command(run.env, "status"), out -> out.contains("served.csv"), run::output);

        Path passwordFile = journal.resolve("journal.password");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal))).isEqualTo("rwx------");
        String password = Files.readString(passwordFile).trim();
        assertThat(password).matches("[0-9a-f]{64}");
        // with the password, as status itself reads: the server does serve the journal
        try (Connection c = DriverManager.getConnection(served, "SA", password)) {
            assertThat(c.isValid(5)).isTrue();
        }
        assertThat(run.output()).doesNotContain(password);
        assertThat(status).doesNotContain(password);
    }

    @Test
    void a_journal_of_the_version_before_passwords_opens_after_the_upgrade() throws Exception {
        run.drop("before.csv", "ref_id,product_sku,customer_no\nJS-2,STEAM45K,b@example.com\n");
        assertThat(run.runOnce(Duration.ofMinutes(3))).as(run.output()).isZero();
        Path journal = run.data.resolve("journal");
        Path passwordFile = journal.resolve("journal.password");
        // back to what the version before left: admin SA with an empty password, no password file
        String url = "jdbc:h2:file:" + journal.toAbsolutePath().resolve("journal");
        try (Connection c = DriverManager.getConnection(url, "SA", Files.readString(passwordFile).trim());
             Statement s = c.createStatement()) {
            s.execute("ALTER USER SA SET PASSWORD ''");
        }
        Files.delete(passwordFile);

        // a command opens it first (no product runs: it reads the file itself, and gives it a password)
        assertThat(BuiltJar.command(run.env, "status")).contains("before.csv");
        assertThat(Files.readString(passwordFile, StandardCharsets.US_ASCII).trim()).matches("[0-9a-f]{64}");
        assertThatThrownBy(() -> DriverManager.getConnection(url, "SA", "").close())
                .isInstanceOf(SQLException.class).hasMessageContaining("Wrong user name or password");

        // and the product after it: the old batch is there and a new one goes through
        run.drop("after.csv", "ref_id,product_sku,customer_no\nJS-3,STEAM45K,c@example.com\n");
        assertThat(run.runOnce(Duration.ofMinutes(3))).as(run.output()).isZero();
        String status = BuiltJar.command(run.env, "status");
        assertThat(status).contains("before.csv").contains("after.csv");
    }
}
