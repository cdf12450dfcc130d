package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.SftpServer;

/**
 * The built jar with its inbox and reports folder on a real SFTP server (Apache MINA SSHD in this
 * JVM): a batch written to the server in two parts is taken once and whole, ordered, archived on
 * the server and reported there; a later batch of the same name (taken by a once-mode run) keeps
 * the earlier report under its batch-specific name; the password shows in no log line. Relative
 * folders are below the user's login folder (/home/erp on this server), absolute ones
 * ({@code sftp://erp@host:port//srv/...}) below the server's "/".
 */
class SftpFoldersE2ETest {

    /** '&' and '#' would end or cut the password if it were not passed verbatim. */
    static final String PASSWORD = "Kata&Sandi#2026";

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(11L).setFailRate(0));
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    SftpServer server;
    JarRun run;

    @BeforeEach
    void start() throws Exception {
        server = SftpServer.start(home.resolve("server"), home.resolve("server-keys"), PASSWORD);
        Files.createDirectories(server.home().resolve("inbox"));
        run = product.node("node").provider(sandbox.baseUrl());
        run.env.put("TOPUP_INBOX", server.uri("inbox"));
        run.env.put("TOPUP_REPORTS", server.uri("reports"));
        run.env.put("TOPUP_SFTP_PASSWORD", PASSWORD);
        run.env.put("TOPUP_SFTP_KNOWN_HOSTS_FILE", server.knownHosts().toString());
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
    }

    @AfterEach
    void stop() throws Exception {
        run.kill(); // before its server goes
        server.close();
    }

    static String batch(String prefix, int rows) {
        return "ref_id,product_sku,customer_no,customer_no_zone\n" + IntStream.rangeClosed(1, rows)
                .mapToObj(i -> prefix + "-" + i + ",ML86,1234567" + (10 + i) + ",2345\n").collect(Collectors.joining());
    }

    @Test
    void a_batch_on_the_server_is_taken_whole_once_reported_there_and_archived() throws Exception {
        Path inbox = server.home().resolve("inbox");
        Path reports = server.home().resolve("reports");
        String first = batch("SFTP1", 20);
        run.start();
        awaitOutput("Ready: watching inbox", Duration.ofMinutes(1));
        // the ERP writes slowly: 40 pieces cut anywhere (mostly mid-row), 300 ms apart, so that the
        // relay polls (every 5 s) while the file is still growing; the relay's read lock takes a file
        // unchanged for 2 s, so a pause between pieces that long (a stalled test JVM) would hand it half
        // a file: 300 ms leaves 1.7 s for stalls where 700 ms left 1.3 s
        Path growing = inbox.resolve("daily.csv");
        int pieces = 40;
        for (int i = 0; i < pieces; i++) {
            String piece = first.substring(first.length() * i / pieces, first.length() * (i + 1) / pieces);
            Files.writeString(growing, piece, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Thread.sleep(300); // pacing the writer, not waiting for a condition
        }

        awaitFile(reports.resolve("daily.summary.json"), Duration.ofMinutes(2));
        Report report = Report.read(reports, "daily", ',');
        Map<String, LedgerEntry> ledger = sandbox.ledger().stream()
                .collect(Collectors.toMap(LedgerEntry::refId, Function.identity()));
        assertThat(report.rows()).extracting(r -> r.get("ref_id") + " " + r.get("status") + " " + r.get("customer_no"))
                .containsExactlyElementsOf(IntStream.rangeClosed(1, 20)
                        .mapToObj(i -> "SFTP1-" + i + " success 1234567" + (10 + i)).toList());
        assertThat(ledger).hasSize(20);
        assertThat(report.rows()).allSatisfy(r ->
                assertThat(r.get("serial_number")).isEqualTo(String.valueOf(ledger.get(r.get("ref_id")).serialNumber())));
        assertThat(names(reports)).containsExactly("daily.result.csv", "daily.summary.json");
        assertThat(names(inbox)).containsExactly(".archive");
        List<Path> archived = files(inbox.resolve(".archive"));
        assertThat(archived).hasSize(1);
        assertThat(archived.get(0).getFileName().toString()).startsWith("daily.").endsWith(".csv");
        assertThat(Files.readString(archived.get(0))).isEqualTo(first);
        run.kill();
        String watchLog = run.output();

        // the next day's file of the same name, taken by a once-mode run: the first report is kept
        Files.writeString(home.resolve("daily.part"), batch("SFTP2", 3));
        Files.move(home.resolve("daily.part"), inbox.resolve("daily.csv"));
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        List<String> names = names(reports);
        assertThat(names).hasSize(4).contains("daily.result.csv", "daily.summary.json");
        String kept = names.stream().filter(n -> n.startsWith("daily.batch-") && n.endsWith(".result.csv"))
                .findFirst().orElseThrow();
        assertThat(Report.read(reports, kept.substring(0, kept.length() - ".result.csv".length()), ',').rows())
                .hasSize(20);
        assertThat(Report.read(reports, "daily", ',').rows()).extracting(r -> r.get("ref_id") + " " + r.get("status"))
                .containsExactly("SFTP2-1 success", "SFTP2-2 success", "SFTP2-3 success");
        assertThat(sandbox.ledger()).hasSize(23);
        assertThat(files(inbox.resolve(".archive"))).hasSize(2);
        assertThat(names(inbox)).containsExactly(".archive");
        assertThat(names(reports)).noneMatch(n -> n.endsWith(".part")); // only whole reports on the server

        String onceLog = run.output();
        assertThat(watchLog).contains("Ready: watching inbox " + server.uri("inbox"));
        assertThat(watchLog + onceLog).doesNotContain(PASSWORD).doesNotContain("Kata");
    }

    /**
     * README: {@code sftp://user@host//srv/out} is the absolute folder /srv/out, not srv/out below
     * the login folder (camel-ftp alone would make it relative, with a WARN). A once-mode run
     * fetches through its own Camel context and uploads reports through the run's, so both places
     * the product binds its sftp component are used.
     */
    @Test
    void absolute_folders_are_absolute_on_the_server() throws Exception {
        Path inbox = Files.createDirectories(server.root().resolve("srv/erp/out"));
        Path reports = server.root().resolve("srv/erp/in");
        run.env.put("TOPUP_INBOX", server.uri("/srv/erp/out"));
        run.env.put("TOPUP_REPORTS", server.uri("/srv/erp/in"));
        Files.writeString(home.resolve("abs.part"), batch("ABS", 2));
        Files.move(home.resolve("abs.part"), inbox.resolve("abs.csv"));
        long started = System.nanoTime();
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        System.out.printf("absolute folders, once run: %.1f s%n", (System.nanoTime() - started) / 1e9);
        String output = run.output();
        assertThat(Report.read(reports, "abs", ',').rows()).extracting(r -> r.get("ref_id") + " " + r.get("status"))
                .containsExactly("ABS-1 success", "ABS-2 success");
        assertThat(names(inbox)).containsExactly(".archive");
        assertThat(files(inbox.resolve(".archive"))).hasSize(1);
        assertThat(server.home().resolve("srv")).as("nothing below the login folder").doesNotExist();
        assertThat(output).contains("fetched from sftp://erp@127.0.0.1:" + server.port() + "//srv/erp/out")
                .doesNotContain("absolute paths").doesNotContain(PASSWORD);
    }

    void awaitOutput(String text, Duration limit) {
        String output = Poll.atMost(limit, run::output, o -> o.contains(text));
        if (!output.contains(text)) {
            throw new AssertionError("'" + text + "' not logged within " + limit + "; the run's output:\n" + output);
        }
    }

    void awaitFile(Path file, Duration limit) {
        if (!Poll.atMost(limit, () -> Files.exists(file), Boolean.TRUE::equals)) {
            throw new AssertionError(file + " did not appear within " + limit + "; the run's output:\n" + run.output() + "\nfiles of the test:\n" + tree());
        }
    }

    String tree() {
        try (Stream<Path> all = Files.walk(home)) {
            return all.map(Path::toString).collect(Collectors.joining("\n"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    static List<String> names(Path dir) throws IOException {
        return files(dir).stream().map(p -> p.getFileName().toString()).toList();
    }

    static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }
}
