package org.topupbatch.command;

import org.topupbatch.settings.SettingsLookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.testing.PostgresServer;

/**
 * {@code migrate-journal}: an H2 journal with rows in every state, moved into an empty PostgreSQL
 * database of the embedded server, then opened there as the product would open it.
 */
class MigrateJournalCommandTest {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    static final String PASSWORD = "pg-pass-Zq81";
    static final Instant T = Instant.parse("2026-03-04T05:06:07.089Z");

    @TempDir
    Path data;

    PostgresServer.Database target;
    final ByteArrayOutputStream output = new ByteArrayOutputStream();

    @BeforeEach
    void createTarget() {
        target = POSTGRES.createDatabase();
    }

    int migrateJournal(String... args) {
        Properties file = new Properties();
        file.setProperty("topup.data", data.toString());
        SettingsLookup settings = new SettingsLookup(file, Map.of(), new Properties());
        PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);
        return new MigrateJournalCommand(new CommandContext(settings, out, out, java.time.Clock.systemUTC()),
                Map.of("PG_PASS", PASSWORD)).run(List.of(args));
    }

    String output() {
        return output.toString(StandardCharsets.UTF_8);
    }

    static NewRow row(int seq, String ref, RowState state) {
        return new NewRow(seq, seq + 2L, ref, "ML86", "1234567" + seq, seq % 2 == 0 ? "2345" : null,
                seq == 3 ? 25_000L : null, List.of("erp-" + seq, "=cell;" + seq), state,
                state == RowState.REJECTED ? null : 20_000L + seq, state == RowState.REJECTED ? "why " + seq : null);
    }

    /** One batch with a row in every state, a halted batch, an unreadable file, provider calls. */
    void buildH2Journal() {
        try (JdbcJournal h2 = JdbcJournal.open(data, null, null, null)) {
            long shop;
            try (BatchWriter w = h2.intake().openBatch("shop.csv", ';', List.of("erp_id", "note"), "archive/shop.csv")) {
                String[] refs = {"M-ACCEPTED", "M-REJECTED", "M-SENDING", "M-PENDING", "M-SUCCESS", "M-FAILED", "M-REFUSED", "M-UNKNOWN"};
                for (int i = 0; i < refs.length; i++) {
                    w.add(row(i, refs[i], i == 1 ? RowState.REJECTED : RowState.ACCEPTED));
                }
                w.add(row(8, "M-SUCCESS", RowState.REJECTED)); // a repeated ref_id, rejected
                // a repeat of the pending order, waiting for its outcome (docs/money-guards.md)
                NewRow plain = row(9, "M-WAITING", RowState.WAITING);
                w.add(new NewRow(plain.seq(), plain.line(), plain.refId(), plain.productSku(), plain.customerNo(),
                        plain.customerNoZone(), plain.maxPrice(), plain.extras(), plain.state(), plain.price(),
                        "waits for ref_id M-PENDING", null, null, "M-PENDING"));
                shop = w.commit();
            }
            h2.submission().recordSubmitStart(shop, 1_000_000L, T);
            for (String ref : List.of("M-SENDING", "M-PENDING", "M-SUCCESS", "M-FAILED", "M-REFUSED", "M-UNKNOWN")) {
                assertThat(h2.submission().markSending(h2.tracking().findOrder(ref).orElseThrow().id(), T)).isTrue();
            }
            outcome(h2, "M-PENDING", RowState.PENDING, null, 20_003L, null);
            outcome(h2, "M-SUCCESS", RowState.SUCCESS, "SN-5-ÄÖ", 20_004L, "ok");
            outcome(h2, "M-FAILED", RowState.FAILED, null, 20_005L, "refunded");
            outcome(h2, "M-REFUSED", RowState.REFUSED, null, null, "PRODUCT_UNAVAILABLE");
            outcome(h2, "M-UNKNOWN", RowState.UNKNOWN, null, null, "timeout");
            h2.submission().scheduleCheck(h2.tracking().findOrder("M-PENDING").orElseThrow().id(), T.plusSeconds(30), 2);
            h2.reporting().markReported(shop, T.plusSeconds(60), false);
            h2.intake().recordUnreadableBatch("broken.csv", "no ref_id column", "archive/broken.csv");
            long halted;
            try (BatchWriter w = h2.intake().openBatch("halted.csv", ',', List.of(), "archive/halted.csv")) {
                w.add(row(0, "H-1", RowState.ACCEPTED));
                halted = w.commit();
            }
            h2.submission().haltBatch(halted, "balance gone");
            for (int i = 0; i < 3; i++) {
                h2.callLog().completeCall(h2.callLog().reserveCall(T.plusMillis(i), "order"), T.plusMillis(i + 300), 200);
            }
        }
    }

    static void outcome(JdbcJournal j, String ref, RowState state, String serial, Long price, String message) {
        assertThat(j.submission().recordOutcome(j.tracking().findOrder(ref).orElseThrow().id(), state, serial, price, message)).isTrue();
    }

    /** Everything the journal API shows of every batch and row, in id order. */
    static List<Object> everything(JdbcJournal j) {
        List<Object> all = new ArrayList<>();
        for (long id = 1; id <= 3; id++) {
            BatchRecord batch = j.reporting().batch(id).orElseThrow();
            all.add(batch);
            j.reporting().forEachRow(id, all::add);
        }
        all.add(j.callLog().callsSince(Instant.EPOCH));
        return all;
    }

    @Test
    void every_batch_row_state_and_ref_id_is_kept_and_new_ids_continue_after_the_copied_ones() throws Exception {
        buildH2Journal();
        List<Object> before;
        try (JdbcJournal h2 = JdbcJournal.open(data, null, null, null)) {
            before = everything(h2);
        }

        int exit = migrateJournal("--to", target.url(), "--user", target.user(), "--password-env", "PG_PASS");

        assertThat(exit).as(output()).isZero();
        assertThat(output()).contains("batch: 3 rows", "batch_row: 11 rows", "provider_call: 3 rows", "verified")
                .doesNotContain(PASSWORD);
        try (JdbcJournal pg = JdbcJournal.open(data, target.url(), target.user(), target.password())) {
            assertThat(everything(pg)).isEqualTo(before);
            assertThat(pg.tracking().findOrder("M-SUCCESS").orElseThrow().serialNumber()).isEqualTo("SN-5-ÄÖ");
            assertThat(pg.submission().rowsInState(List.of(RowState.values()), 100)).extracting(RowRecord::state)
                    .containsOnly(RowState.values()); // every state moved

            // the same file dropped again: its order ref_ids are known, so nothing is ordered twice
            long again;
            try (BatchWriter w = pg.intake().openBatch("shop.csv", ';', List.of(), "archive/shop-2.csv")) {
                for (String ref : List.of("M-ACCEPTED", "M-SENDING", "M-PENDING", "M-SUCCESS", "M-FAILED", "M-UNKNOWN", "M-WAITING", "H-1")) {
                    assertThat(w.refIdTaken(ref)).as(ref).isTrue();
                }
                assertThat(w.refIdTaken("M-REJECTED")).isFalse();
                w.add(row(0, "NEW-1", RowState.ACCEPTED));
                again = w.commit();
            }
            assertThat(again).isEqualTo(4);
            assertThat(pg.tracking().findOrder("NEW-1").orElseThrow().id()).isEqualTo(12);
            pg.callLog().completeCall(pg.callLog().reserveCall(T.plusSeconds(1), "order"), T.plusSeconds(2), 200);
            assertThat(pg.callLog().callsSince(Instant.EPOCH)).hasSize(4);
        }
    }

    @Test
    void a_target_with_journal_data_is_refused_and_left_as_it_was() throws Exception {
        buildH2Journal();
        try (JdbcJournal pg = JdbcJournal.open(data, target.url(), target.user(), target.password())) {
            pg.intake().recordUnreadableBatch("other.csv", "already here", "archive/other.csv");
        }

        int exit = migrateJournal("--to", target.url(), "--user", target.user());

        assertThat(exit).isEqualTo(1);
        assertThat(output()).contains("already holds journal data (table batch: 1 rows)");
        assertThat(output().strip().lines()).hasSize(1);
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM batch")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(1);
        }
    }

    @Test
    void a_data_folder_without_a_journal_is_named_and_nothing_is_created() {
        Path empty = data.resolve("nothing-here");
        int exit = migrateJournal("--to", target.url(), "--data", empty.toString());
        assertThat(exit).isEqualTo(1);
        assertThat(output()).contains("no H2 journal at " + empty.toAbsolutePath().resolve("journal").resolve("journal.mv.db"));
        assertThat(empty).doesNotExist();
    }

    @Test
    void a_libpq_url_gets_the_jdbc_form_and_the_password_is_not_shown() {
        int exit = migrateJournal("--to", "postgres://topup:pw-in-url-77@db:5432/topup");
        assertThat(exit).isEqualTo(1);
        assertThat(output()).contains("use --to=jdbc:postgresql://db:5432/topup").doesNotContain("pw-in-url-77");
    }

    @Test
    void a_missing_password_variable_and_unknown_options_are_named() {
        assertThat(migrateJournal("--to", target.url(), "--password-env", "NOT_SET_ANYWHERE")).isEqualTo(1);
        assertThat(migrateJournal("--to", target.url(), "--pasword", "x")).isEqualTo(1);
        assertThat(migrateJournal("--to")).isEqualTo(1);
        assertThat(migrateJournal()).as("in place, but no journal there").isEqualTo(1);
        assertThat(output()).contains("NOT_SET_ANYWHERE is not set", "unknown option '--pasword'", "--to needs a value",
                "no H2 journal at", MigrateJournalCommand.USAGE);
        assertThat(data.resolve("journal").resolve("journal.mv.db")).as("nothing created").doesNotExist();
    }
}
