package org.topupbatch.testing;

import org.topupbatch.settings.SettingsLookup;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/**
 * A journal written the way a run writes it, for the operators' commands: one batch of five rows
 * ending SUCCESS, FAILED, REFUSED, PENDING and REJECTED; and the settings the commands load.
 */
public final class OperatorJournal {

    public static final Instant SENT = Instant.parse("2026-03-01T10:00:00Z");

    public final Map<String, String> env = new LinkedHashMap<>();
    public final ByteArrayOutputStream out = new ByteArrayOutputStream();
    public final ByteArrayOutputStream err = new ByteArrayOutputStream();

    public OperatorJournal(Path dir) {
        env.put("TOPUP_DATA", dir.resolve("data").toString());
        env.put("TOPUP_REPORTS", dir.resolve("reports").toString());
        env.put("TOPUP_INBOX", dir.resolve("inbox").toString());
    }

    public OperatorJournal on(org.topupbatch.testing.PostgresServer.Database db) {
        env.put("TOPUP_DB_URL", db.url());
        env.put("TOPUP_DB_USER", db.user());
        env.put("TOPUP_DB_PASSWORD", db.password());
        return this;
    }

    public JdbcJournal open() {
        return JdbcJournal.open(Path.of(env.get("TOPUP_DATA")), env.get("TOPUP_DB_URL"), env.get("TOPUP_DB_USER"),
                env.get("TOPUP_DB_PASSWORD"));
    }

    /** A batch of file {@code file} with extras "customer_name" and ';' as its delimiter. */
    public static long fiveRowBatch(JdbcJournal journal, String file, String prefix) {
        long id;
        try (BatchWriter writer = journal.intake().openBatch(file, ';', org.topupbatch.journal.BatchEncoding.UTF_8, List.of("customer_name"), "archive/" + file, 1_000_000L, "sandbox")) {
            for (int i = 1; i <= 4; i++) {
                writer.add(new NewRow(i - 1, i + 1, prefix + i, "PULSA10", "08123456789" + i, null, null,
                        List.of("Customer; " + i), RowState.ACCEPTED, 10_450L, null));
            }
            writer.add(new NewRow(4, 6, prefix + 5, "NOPE", "0812", null, null, List.of("x"), RowState.REJECTED, null,
                    "product_sku NOPE is not in the price list"));
            id = writer.commit();
        }
        RowState[] outcomes = {RowState.SUCCESS, RowState.FAILED, RowState.REFUSED, RowState.PENDING};
        for (int i = 1; i <= 4; i++) {
            long rowId = journal.tracking().findOrder(prefix + i).orElseThrow().id();
            journal.submission().markSending(rowId, SENT);
            journal.submission().recordOutcome(rowId, outcomes[i - 1], null, outcomes[i - 1] == RowState.REFUSED ? null : 10_450L,
                    outcomes[i - 1] == RowState.REFUSED ? "product off" : null);
        }
        return id;
    }

    public SettingsLookup settings() throws Exception {
        Properties file = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
            file.load(in);
        }
        return new SettingsLookup(file, env, new Properties());
    }

    public PrintStream outStream() {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    public PrintStream errStream() {
        return new PrintStream(err, true, StandardCharsets.UTF_8);
    }

    public String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    public String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
