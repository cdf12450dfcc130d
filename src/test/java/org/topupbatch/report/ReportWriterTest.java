package org.topupbatch.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchEncoding;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;

class ReportWriterTest {

    static final Instant STARTED = Instant.parse("2026-03-01T10:00:00.123Z");
    static final Instant FINISHED = Instant.parse("2026-03-01T10:05:30Z");

    @TempDir
    Path reports;

    static BatchRecord batch(char delimiter, List<String> extras, String error, String haltReason, Long balanceBefore) {
        return new BatchRecord(7, "orders-2026.CSV", delimiter, extras, "data/archive/orders-2026.CSV", error,
                haltReason, balanceBefore, STARTED, STARTED, null, false, "sandbox", null);
    }

    static int seq;

    static RowRecord row(String refId, String customerNo, String zone, RowState state, String serial, Long price,
                         String message, String... extras) {
        int s = seq++;
        return new RowRecord(s + 1, 7, s, s + 2, refId, "ML86", customerNo, zone, null, List.of(extras), state,
                serial, price, message, STARTED, STARTED, null, 0, null);
    }

    static Consumer<Consumer<RowRecord>> source(RowRecord... rows) {
        return action -> Stream.of(rows).forEach(action);
    }

    static BatchRecord batchIn(BatchEncoding encoding) {
        return new BatchRecord(7, "orders-2026.CSV", '\t', List.of("name"), "data/archive/orders-2026.CSV", null,
                null, 1_000L, STARTED, STARTED, null, false, "sandbox", null, encoding);
    }

    @Test
    void theReportGoesBackInTheEncodingTheBatchCameIn() throws IOException {
        seq = 0;
        var cp1252 = java.nio.charset.Charset.forName("windows-1252");
        ReportFiles files = new ReportWriter(reports).write(batchIn(new BatchEncoding(cp1252, false)),
                source(row("S1", "123456", null, RowState.SUCCESS, "SN-1", 20000L, "ok \u2713", "Jos\u00e9")), 900L, FINISHED);
        byte[] bytes = Files.readAllBytes(files.resultCsv());
        // é as the one byte E9; a character Windows-1252 cannot hold (the check mark) as '?'
        assertThat(new String(bytes, cp1252)).contains("\tok ?\tJos\u00e9\r\n");
        assertThat(bytes).contains((byte) 0xE9);

        seq = 0;
        files = new ReportWriter(reports).write(batchIn(new BatchEncoding(StandardCharsets.UTF_16LE, true)),
                source(row("S1", "123456", null, RowState.SUCCESS, "SN-1", 20000L, "ok", "Jos\u00e9")), 900L, FINISHED);
        bytes = Files.readAllBytes(files.resultCsv());
        assertThat(bytes[0]).isEqualTo((byte) 0xFF);
        assertThat(bytes[1]).isEqualTo((byte) 0xFE);
        assertThat(new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE)).startsWith("line\tref_id\t")
                .contains("\tJos\u00e9\r\n");

        // topup.report.charset wins over the batch's own
        seq = 0;
        files = new ReportWriter(reports, ReportDelivery.LOCAL, StandardCharsets.UTF_8).write(
                batchIn(new BatchEncoding(StandardCharsets.UTF_16LE, true)),
                source(row("S1", "123456", null, RowState.SUCCESS, "SN-1", 20000L, "ok", "Jos\u00e9")), 900L, FINISHED);
        assertThat(Files.readString(files.resultCsv(), StandardCharsets.UTF_8)).startsWith("line\tref_id\t").contains("Jos\u00e9");
    }

    @Test
    void resultAndSummaryGolden() throws IOException {
        seq = 0;
        ReportFiles files = new ReportWriter(reports).write(batch(';', List.of("Note", "=Cabang"), null, null, 1_000_000L),
                source(
                        row("S1", "123456", "2001", RowState.SUCCESS, "SN-1", 20000L, "Top-up berhasil", "a;b", "JKT"),
                        row("F1", "123456", null, RowState.FAILED, null, 20000L, "Provider failed", "", ""),
                        row("X1", "123456", null, RowState.REFUSED, null, 20000L, "INVALID_CUSTOMER_NO: bad id", "", ""),
                        row("P1", "123456", null, RowState.PENDING, null, 19000L, "Processing", "", ""),
                        row("U1", "123456", null, RowState.UNKNOWN, null, 20000L, null, "", ""),
                        row("W1", "123456", null, RowState.SENDING, null, 20000L, null, "", ""),
                        row("A1", "123456", null, RowState.ACCEPTED, null, 20000L, null, "", ""),
                        row("-R1", "=HYPERLINK(\"x\")", "+1+A1", RowState.REJECTED, null, null,
                                "-bad", "@SUM(A1)", "\tx\"y\nz")),
                2_000_000L, FINISHED);

        assertThat(files.resultCsv()).isEqualTo(reports.resolve("orders-2026.result.csv"));
        assertThat(Files.readString(files.resultCsv())).isEqualTo(String.join("\r\n",
                "line;ref_id;product_sku;customer_no;customer_no_zone;status;serial_number;price;message;Note;'=Cabang",
                "2;S1;ML86;123456;2001;success;SN-1;20000;Top-up berhasil;\"a;b\";JKT",
                "3;F1;ML86;123456;;failed;;20000;Provider failed;;",
                "4;X1;ML86;123456;;failed;;;INVALID_CUSTOMER_NO: bad id;;",
                "5;P1;ML86;123456;;pending;;19000;Processing;;",
                "6;U1;ML86;123456;;pending;;20000;outcome not yet confirmed by the provider;;",
                "7;W1;ML86;123456;;pending;;20000;outcome not yet confirmed by the provider;;",
                "8;A1;ML86;123456;;pending;;;not yet submitted;;",
                "9;'-R1;ML86;\"'=HYPERLINK(\"\"x\"\")\";'+1+A1;rejected;;;'-bad;'@SUM(A1);\"'\tx\"\"y\nz\"",
                ""));

        assertThat(Files.readString(files.summaryJson())).isEqualTo("""
                {
                  "file" : "orders-2026.CSV",
                  "batch" : 7,
                  "rows" : 8,
                  "submitted" : 6,
                  "success" : 1,
                  "failed" : 2,
                  "pending" : 3,
                  "rejected" : 1,
                  "queued" : 1,
                  "charged" : 79000,
                  "balance_before" : 1000000,
                  "balance_after" : 2000000,
                  "started_at" : "2026-03-01T10:00:00Z",
                  "finished_at" : "2026-03-01T10:05:30Z",
                  "provider" : "sandbox"
                }
                """);
        assertThat(files.summary().charged()).isEqualTo(79000);
        try (Stream<Path> left = Files.list(reports)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("orders-2026.result.csv", "orders-2026.summary.json");
        }
    }

    @Test
    void haltedBatchReportsUnsentRowsAsRejected() throws IOException {
        seq = 0;
        ReportFiles files = new ReportWriter(reports).write(
                batch(',', List.of(), null, "the provider refused the credentials (INVALID_SIGNATURE)", null),
                source(row("S1", "123456", "1", RowState.SUCCESS, "SN", 20000L, "ok"),
                        row("A1", "123456", "1", RowState.ACCEPTED, null, 20000L, null)),
                null, FINISHED);
        assertThat(Files.readAllLines(files.resultCsv())).containsExactly(
                "line,ref_id,product_sku,customer_no,customer_no_zone,status,serial_number,price,message",
                "2,S1,ML86,123456,1,success,SN,20000,ok",
                "3,A1,ML86,123456,1,rejected,,,not submitted: the provider refused the credentials (INVALID_SIGNATURE)");
        String json = Files.readString(files.summaryJson());
        assertThat(json).contains("\"submitted\" : 1,", "\"rejected\" : 1,", "\"charged\" : 20000,",
                "\"balance_before\" : null,", "\"balance_after\" : null,");
    }

    @Test
    void unreadableBatchGetsOnlyASummaryWithItsError() throws IOException {
        ReportFiles files = new ReportWriter(reports.resolve("new-folder")).write(
                batch(',', List.of(), "header has no column ref_id (found: a, b)", null, null),
                action -> { throw new AssertionError("rows of an unreadable batch are not read"); },
                500L, FINISHED);
        assertThat(files.resultCsv()).isNull();
        assertThat(Files.readString(files.summaryJson())).isEqualTo("""
                {
                  "file" : "orders-2026.CSV",
                  "batch" : 7,
                  "rows" : 0,
                  "submitted" : 0,
                  "success" : 0,
                  "failed" : 0,
                  "pending" : 0,
                  "rejected" : 0,
                  "queued" : 0,
                  "charged" : 0,
                  "balance_before" : 500,
                  "balance_after" : 500,
                  "started_at" : "2026-03-01T10:00:00Z",
                  "finished_at" : "2026-03-01T10:05:30Z",
                  "provider" : "sandbox",
                  "error" : "header has no column ref_id (found: a, b)"
                }
                """);
        try (Stream<Path> left = Files.list(reports.resolve("new-folder"))) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("orders-2026.summary.json");
        }
    }

    @Test
    void rewriteReplacesTheOldReportAndAFailureLeavesNoTempFile() throws IOException {
        seq = 0;
        ReportWriter writer = new ReportWriter(reports);
        BatchRecord b = batch(',', List.of(), null, null, null);
        writer.write(b, source(row("P1", "1", null, RowState.PENDING, null, 5L, "wait")), null, FINISHED);
        seq = 0;
        writer.write(b, source(row("P1", "1", null, RowState.SUCCESS, "SN", 5L, "done")), null, FINISHED);
        assertThat(Files.readString(reports.resolve("orders-2026.result.csv"))).contains("success,SN,5,done");

        assertThatThrownBy(() -> writer.write(b, action -> { throw new UncheckedIOException(new IOException("journal gone")); },
                null, FINISHED)).isInstanceOf(IOException.class).hasMessage("journal gone");
        try (Stream<Path> left = Files.list(reports)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("orders-2026.result.csv", "orders-2026.summary.json");
        }
        assertThat(Files.readString(reports.resolve("orders-2026.result.csv"))).contains("success,SN,5,done");
    }

    static BatchRecord batchNo(long id, Instant started) {
        return new BatchRecord(id, "daily.csv", ',', List.of(), "archive/daily.csv", null, null, 100L, started, started,
                null, false, "sandbox", null);
    }

    static Consumer<Consumer<RowRecord>> oneRow(String refId, String serial) {
        seq = 0;
        return source(row(refId, "1", null, RowState.SUCCESS, serial, 5L, "ok"));
    }

    static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aLaterBatchOfTheSameNameKeepsTheEarlierReportUnderItsBatchName() throws IOException {
        ReportWriter writer = new ReportWriter(reports);
        writer.write(batchNo(3, STARTED), oneRow("D1", "SN-EARLY"), 90L, FINISHED);
        ReportFiles later = writer.write(batchNo(4, FINISHED), oneRow("D2", "SN-LATE"), 80L, FINISHED);

        assertThat(names(reports)).containsExactly(
                "daily.batch-3-20260301-100000.result.csv", "daily.batch-3-20260301-100000.summary.json",
                "daily.result.csv", "daily.summary.json");
        assertThat(later.resultCsv()).isEqualTo(reports.resolve("daily.result.csv"));
        assertThat(Files.readString(reports.resolve("daily.result.csv"))).contains("D2", "SN-LATE").doesNotContain("D1");
        assertThat(Files.readString(reports.resolve("daily.batch-3-20260301-100000.result.csv"))).contains("D1", "SN-EARLY");
        assertThat(Files.readString(reports.resolve("daily.batch-3-20260301-100000.summary.json"))).contains("\"batch\" : 3,");

        // the earlier batch written again (its pending orders settled) keeps to its own name
        writer.write(batchNo(3, STARTED), oneRow("D1", "SN-EARLY-2"), 70L, FINISHED);
        assertThat(names(reports)).hasSize(4);
        assertThat(Files.readString(reports.resolve("daily.result.csv"))).contains("SN-LATE");
        assertThat(Files.readString(reports.resolve("daily.batch-3-20260301-100000.result.csv"))).contains("SN-EARLY-2");

        // and the same batch written again just replaces its report
        writer.write(batchNo(4, FINISHED), oneRow("D2", "SN-LATE-2"), 60L, FINISHED);
        assertThat(names(reports)).hasSize(4);
        assertThat(Files.readString(reports.resolve("daily.result.csv"))).contains("SN-LATE-2");
    }

    @Test
    void aCrashBetweenTheTwoRenamesIsFinishedByTheNextWrite() throws IOException {
        ReportWriter writer = new ReportWriter(reports);
        writer.write(batchNo(3, STARTED), oneRow("D1", "SN-EARLY"), 90L, FINISHED);
        // as if killed after the result file was moved aside, before the summary was
        Files.move(reports.resolve("daily.result.csv"), reports.resolve("daily.batch-3-20260301-100000.result.csv"));

        writer.write(batchNo(4, FINISHED), oneRow("D2", "SN-LATE"), 80L, FINISHED);
        assertThat(names(reports)).containsExactly(
                "daily.batch-3-20260301-100000.result.csv", "daily.batch-3-20260301-100000.summary.json",
                "daily.result.csv", "daily.summary.json");
        assertThat(Files.readString(reports.resolve("daily.batch-3-20260301-100000.summary.json"))).contains("\"batch\" : 3,");
    }

    @Test
    void aReportWhoseBatchCannotBeToldIsKeptAsEarlier() throws IOException {
        Files.writeString(reports.resolve("daily.result.csv"), "line,ref_id\r\n2,OLD\r\n");
        Files.writeString(reports.resolve("daily.summary.json"), "{\"file\" : \"daily.csv\"}");
        Files.setLastModifiedTime(reports.resolve("daily.result.csv"), java.nio.file.attribute.FileTime.from(STARTED));
        new ReportWriter(reports).write(batchNo(4, FINISHED), oneRow("D2", "SN"), 80L, FINISHED);
        Files.writeString(reports.resolve("daily.summary.json"), "not json"); // damaged by hand
        new ReportWriter(reports).write(batchNo(5, FINISHED), oneRow("D3", "SN"), 80L, FINISHED);

        assertThat(names(reports)).contains(
                "daily.earlier-20260301-100000.result.csv", "daily.earlier-20260301-100000.summary.json",
                "daily.result.csv", "daily.summary.json").hasSize(6);
        assertThat(Files.readString(reports.resolve("daily.earlier-20260301-100000.result.csv"))).contains("OLD");
        assertThat(Files.readString(reports.resolve("daily.result.csv"))).contains("D3");
    }

    @Test
    void reportsHaveTheModeAnyNewFileOfTheProcessHas() throws IOException {
        ReportFiles files = new ReportWriter(reports).write(batchNo(3, STARTED), oneRow("M1", "SN"), 1L, FINISHED);
        Set<PosixFilePermission> ordinary = Files.getPosixFilePermissions(Files.createFile(reports.resolve("plain")));

        assertThat(Files.getPosixFilePermissions(files.resultCsv())).isEqualTo(ordinary);
        assertThat(Files.getPosixFilePermissions(files.summaryJson())).isEqualTo(ordinary);
    }

    @Test
    void aTempFileLeftByAProcessKilledMidWriteIsGoneOnceTheReportIsWritten() throws IOException {
        Files.createDirectories(reports);
        Files.writeString(reports.resolve(".orders-2026.result.csv.123456789.tmp"), "line,ref_id\n2,half");
        Files.writeString(reports.resolve(".orders-2026.summary.json.987654321.tmp"), "{\"rows\" :");
        seq = 0;

        new ReportWriter(reports).write(batch(',', List.of(), null, null, null),
                source(row("P1", "1", null, RowState.SUCCESS, "SN", 5L, "done")), null, FINISHED);

        try (Stream<Path> left = Files.list(reports)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("orders-2026.result.csv", "orders-2026.summary.json");
        }
    }

    @Test
    void formulaGuard() {
        assertThat(Stream.of("=1", "+A1", "-1+cmd|' /C calc'!A0", "@x", "\tx", "\rx", "1", "", "a=b", "'x", "+1e3")
                .map(FormulaGuard::escape))
                .containsExactly("'=1", "'+A1", "'-1+cmd|' /C calc'!A0", "'@x", "'\tx", "'\rx", "1", "", "a=b", "'x", "'+1e3");
        // signed numbers hold nothing a formula could run: international phone numbers stay as written
        assertThat(Stream.of("+6281234567890", "-5000", "+62 812-3456-7890").map(FormulaGuard::escape))
                .containsExactly("+6281234567890", "-5000", "+62 812-3456-7890");
        assertThat(FormulaGuard.escape(null)).isEmpty();
    }

    @Test
    void reportName() {
        assertThat(ReportWriter.reportName("in/a.b.csv")).isEqualTo("a.b");
        assertThat(ReportWriter.reportName("X.CSV")).isEqualTo("X");
        assertThat(ReportWriter.reportName("noext")).isEqualTo("noext");
    }
}
