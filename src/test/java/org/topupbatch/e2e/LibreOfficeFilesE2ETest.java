package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * Batch files as real LibreOffice Calc writes them (issue 23): one small sheet with names such as
 * José, Ñandú and Dwi Ángel, saved by {@code soffice --convert-to} as CSV UTF-8 with {@code ,}, as
 * CSV Windows-1252 with {@code ;} (what a spreadsheet on a Western Windows writes by default), and
 * as UTF-16 with tabs and a byte-order mark (Excel's "Unicode text"). The built jar takes all three
 * in one once-mode run against the sandbox: every row is ordered, the report gives back each name
 * exactly as written, in the encoding the batch came in; {@code plan} says which encoding it read.
 * A missing LibreOffice fails the test ({@code .ci/run} installs {@code libreoffice-calc-nogui}).
 */
class LibreOfficeFilesE2ETest {

    static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    static final List<String> HEADER = List.of("ref_id", "product_sku", "customer_no", "customer_no_zone", "max_price",
            "customer_name", "note");

    /** A row of the sheet without its ref_id; every value is one the sandbox accepts and orders with success. */
    record Row(String sku, String customerNo, String zone, String maxPrice, String name, String note) {
    }

    /** Only characters Windows-1252 has: the same sheet is saved in every encoding. */
    static final List<Row> ROWS = List.of(
            new Row("ML86", "123456789", "2345", "", "José", "gift, birthday"),
            new Row("FF100", "12345678", "", "", "Ñandú", "size; large"),
            new Row("TSEL10", "+6281234567890", "", "", "Dwi Ángel", "said \"hi\""),
            new Row("GI60", "812345678", "os_asia", "", "Zoë Anaïs", "€ 5 tip"),
            new Row("VAL475", "Budi#ID01", "", "60000", "Budi Santoso", ""),
            new Row("PUBG60", "5123456789", "", "", "Françoise Müller", "naïve café"));

    /** How LibreOffice saves the sheet, and what the product must read and write back. */
    enum Saved {
        UTF8_COMMA("lo-utf8-comma", "LOA-", "44,34,76", ',', StandardCharsets.UTF_8, 0),
        WINDOWS_1252_SEMICOLON("lo-1252-semicolon", "LOB-", "59,34,1", ';', WINDOWS_1252, 0),
        UTF16_TAB("lo-utf16-tab", "LOC-", "9,34,65535", '\t', StandardCharsets.UTF_16LE, 2);

        final String name;
        final String refPrefix;
        final String exportOptions;
        final char delimiter;
        final Charset charset;
        /** Bytes of the byte-order mark LibreOffice writes (FF FE for UTF-16LE). */
        final int bomBytes;

        Saved(String name, String refPrefix, String exportOptions, char delimiter, Charset charset, int bomBytes) {
            this.name = name;
            this.refPrefix = refPrefix;
            this.exportOptions = exportOptions;
            this.delimiter = delimiter;
            this.charset = charset;
            this.bomBytes = bomBytes;
        }
    }

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(23L).setFailRate(0)
            .setSettleDelay(DurationRange.of(Duration.ofMillis(100), Duration.ofMillis(600)))).sendingWebhooks();
    final Path home = product.home();
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    @Test
    void files_libreoffice_writes_in_utf8_windows_1252_and_utf16_are_ordered_and_reported_in_their_own_encoding()
            throws Exception {
        LibreOffice office = new LibreOffice(home.resolve("lo-profile"));
        Map<Saved, byte[]> files = new LinkedHashMap<>();
        for (Saved saved : Saved.values()) {
            Path sheet = writeSheet(home.resolve("sheets").resolve(saved.name + ".csv"), saved.refPrefix);
            byte[] bytes = Files.readAllBytes(office.convert(sheet, HEADER.size(), saved.exportOptions,
                    home.resolve("lo").resolve(saved.name)));
            assertWrittenAsExpected(saved, bytes);
            files.put(saved, bytes);
        }

        // plan first, on a copy outside the inbox: it names the encoding it read
        Path aside = Files.write(home.resolve("aside-" + Saved.WINDOWS_1252_SEMICOLON.name + ".csv"),
                files.get(Saved.WINDOWS_1252_SEMICOLON));
        assertThat(product.command("plan", aside.toString())).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).as("plan names the encoding it read").contains("Read as:  windows-1252, delimiter ';'")
                .contains("Rows:     6 read, 6 acceptable, 0 rejected");
        StartupRefusalE2ETest.assertNoStackTrace(product.commandOutput());

        for (Map.Entry<Saved, byte[]> file : files.entrySet()) {
            run.drop(file.getKey().name + ".csv", file.getValue());
        }
        assertThat(run.runOnce(Duration.ofMinutes(3))).as(run.output()).isZero();

        List<Report> reports = new ArrayList<>();
        for (Saved saved : Saved.values()) {
            Report report = readReport(saved);
            reports.add(report);
            assertThat(report.summary().get("rows").asInt()).as(saved.name + " rows").isEqualTo(ROWS.size());
            assertThat(report.summary().get("rejected").asInt()).as(saved.name + " rejected").isZero();
            assertThat(report.header()).as(saved.name + " header").containsExactly("line", "ref_id", "product_sku",
                    "customer_no", "customer_no_zone", "status", "serial_number", "price", "message", "customer_name", "note");
            for (int i = 0; i < ROWS.size(); i++) {
                Row row = ROWS.get(i);
                Map<String, String> reported = report.rows().get(i);
                String where = saved.name + " row " + (i + 1);
                assertThat(reported.get("ref_id")).as(where).isEqualTo(saved.refPrefix + (i + 1));
                assertThat(reported.get("status")).as(where + ": " + reported).isEqualTo("success");
                assertThat(reported.get("customer_no")).as(where).isEqualTo(row.customerNo());
                assertThat(reported.get("customer_name")).as(where + " name as written").isEqualTo(row.name());
                assertThat(reported.get("note")).as(where + " note as written").isEqualTo(row.note());
            }
        }
        LedgerCheck.assertConsistent(sandbox, reports);
        assertThat(run.output()).doesNotContain("Exception");
    }

    /** The sheet as a careful user types it: UTF-8, every value as text, quoted where needed. */
    static Path writeSheet(Path file, String refPrefix) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder text = new StringBuilder();
        try (CSVPrinter printer = new CSVPrinter(text, CSVFormat.RFC4180)) {
            printer.printRecord(HEADER);
            for (int i = 0; i < ROWS.size(); i++) {
                Row r = ROWS.get(i);
                printer.printRecord(refPrefix + (i + 1), r.sku(), r.customerNo(), r.zone(), r.maxPrice(), r.name(), r.note());
            }
        }
        return Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** What LibreOffice wrote is what this test means to feed the product (a newer LibreOffice may differ). */
    private static void assertWrittenAsExpected(Saved saved, byte[] bytes) throws CharacterCodingException {
        String what = "LibreOffice's " + saved.name + " file";
        switch (saved) {
            case UTF8_COMMA -> {
                assertThat(head(bytes)).as(what + " starts without a byte-order mark").startsWith("72 65 66 "); // ref
                assertThat(decodeStrictly(bytes, 0, StandardCharsets.UTF_8)).as(what).contains("José").startsWith("ref_id,");
            }
            case WINDOWS_1252_SEMICOLON -> {
                assertThat(isUtf8(bytes)).as(what + " is no UTF-8 (é is the single byte E9)").isFalse();
                assertThat(decodeStrictly(bytes, 0, WINDOWS_1252)).as(what).contains("José").contains("€ 5 tip")
                        .startsWith("ref_id;");
            }
            case UTF16_TAB -> {
                assertThat(head(bytes)).as(what + " starts with the UTF-16LE byte-order mark").startsWith("FF FE ");
                assertThat(decodeStrictly(bytes, 2, StandardCharsets.UTF_16LE)).as(what).contains("José")
                        .startsWith("ref_id\tproduct_sku\t");
            }
        }
    }

    /** The report pair of a file; the result file read in the encoding it must have, its byte-order mark checked. */
    private Report readReport(Saved saved) throws IOException {
        JsonNode summary = new ObjectMapper().readTree(run.reports.resolve(saved.name + ".summary.json").toFile());
        Path csv = run.reports.resolve(saved.name + ".result.csv");
        assertThat(csv).as(saved.name + " report; summary " + summary).exists();
        byte[] bytes = Files.readAllBytes(csv);
        String text;
        switch (saved) {
            case UTF8_COMMA -> {
                assertThat(head(bytes)).as("the report of a UTF-8 file without BOM has none").startsWith("6C 69 6E "); // lin
                text = decodeStrictly(bytes, 0, StandardCharsets.UTF_8);
            }
            case WINDOWS_1252_SEMICOLON -> {
                assertThat(isUtf8(bytes)).as("the report of a Windows-1252 file is Windows-1252, not UTF-8").isFalse();
                text = decodeStrictly(bytes, 0, WINDOWS_1252);
            }
            case UTF16_TAB -> {
                assertThat(head(bytes)).as("the report of a UTF-16LE file with BOM is UTF-16LE with BOM")
                        .startsWith("FF FE 6C 00 "); // BOM, l
                text = decodeStrictly(bytes, 2, StandardCharsets.UTF_16LE);
            }
            default -> throw new IllegalStateException();
        }
        CSVFormat format = CSVFormat.RFC4180.builder().setDelimiter(saved.delimiter).setHeader().setSkipHeaderRecord(true).get();
        List<Map<String, String>> rows = new ArrayList<>();
        try (CSVParser parser = CSVParser.parse(new StringReader(text), format)) {
            for (CSVRecord record : parser) {
                Map<String, String> row = new LinkedHashMap<>();
                parser.getHeaderNames().forEach(h -> row.put(h, record.get(h)));
                rows.add(row);
            }
            return new Report(parser.getHeaderNames(), rows, summary);
        }
    }

    static String decodeStrictly(byte[] bytes, int offset, Charset charset) throws CharacterCodingException {
        return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes, offset, bytes.length - offset)).toString();
    }

    /** The first eight bytes in hex, e.g. {@code FF FE 6C 00 69 00 6E 00 }. */
    static String head(byte[] bytes) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(8, bytes.length); i++) {
            hex.append(String.format("%02X ", bytes[i] & 0xFF));
        }
        return hex.toString();
    }

    static boolean isUtf8(byte[] bytes) {
        try {
            decodeStrictly(bytes, 0, StandardCharsets.UTF_8);
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
