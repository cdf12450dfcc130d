package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.h2.tools.Server;
import org.h2.tools.Shell;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.BuiltJar;

/**
 * An embedded H2 journal held by a running product (a child JVM) can be read by another process,
 * while a second product is still refused; once the holder is killed, a product may take it.
 */
class H2JournalSharingTest {

    @TempDir
    Path data;
    private Process holder;

    @AfterEach
    void killHolder() throws InterruptedException {
        if (holder != null && holder.isAlive()) {
            holder.destroyForcibly().waitFor();
        }
    }

    @Test
    void a_reader_reads_beside_the_product_and_a_second_product_is_refused() throws Exception {
        String java = BuiltJar.java();
        holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                H2JournalSharingTest.class.getName(), data.toString()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.equals("holding")) {
            // the child's start-up chatter
        }
        assertThat(line).as("the child journaled its batch and holds the journal").isEqualTo("holding");

        try (JdbcJournal reader = JdbcJournal.openForReading(data, null, null, null)) {
            assertThat(reader.tracking().findOrder("S-1")).get().extracting(RowRecord::state).isEqualTo(RowState.ACCEPTED);
        }
        // another local user knows the port but not the password: H2's admin with no password is refused
        Path folder = data.toAbsolutePath().resolve("journal");
        String served = H2JournalServer.publishedUrl(folder, folder.resolve("journal")).orElseThrow();
        assertThatThrownBy(() -> Shell.main("-url", served, "-user", "sa", "-password", "",
                "-sql", "CREATE ALIAS PWN FOR \"java.lang.System.getProperty\""))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Wrong user name or password");
        assertThatThrownBy(() -> DriverManager.getConnection(served, "SA", "").close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Wrong user name or password");
        // nor may it stop the server: H2's management password is its own random one
        assertThatThrownBy(() -> Server.shutdownTcpServer(
                served.substring("jdbc:h2:".length(), served.indexOf("/file:")), "", false, false))
                .isInstanceOf(SQLException.class);
        try (JdbcJournal reader = JdbcJournal.openForReading(data, null, null, null)) {
            assertThat(reader.tracking().findOrder("S-1")).as("the server still serves after the attempts").isPresent();
        }
        assertThatThrownBy(() -> JdbcJournal.open(data, null, null, null))
                .isInstanceOf(JournalInUseException.class)
                .hasMessage("another topup-batch instance is active on journal jdbc:h2:file:"
                        + data.toAbsolutePath().resolve("journal").resolve("journal") + "; only one may submit");

        holder.destroyForcibly(); // SIGKILL: the OS frees the instance lock
        assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        try (JdbcJournal next = JdbcJournal.open(data, null, null, null)) {
            assertThat(next.tracking().findOrder("S-1")).isPresent();
        }
    }

    /** The child: a product holding the journal until killed. */
    public static void main(String[] args) throws InterruptedException {
        JdbcJournal journal = JdbcJournal.open(Path.of(args[0]), null, null, null);
        try (BatchWriter writer = journal.intake().openBatch("s.csv", ',', List.of(), "archive/s.csv")) {
            writer.add(JournalContractTest.accepted(0, "S-1"));
            writer.commit();
        }
        journal.callLog().reserveCall(Instant.now(), "balance");
        System.out.println("holding");
        System.out.flush();
        Thread.sleep(120_000); // holds the journal until the test kills this process: no condition to wait for
    }
}
