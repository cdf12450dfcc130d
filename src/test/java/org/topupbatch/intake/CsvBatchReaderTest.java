package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvBatchReaderTest {

    static CsvBatchReader open(String text) throws IOException {
        return CsvBatchReader.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    static List<BatchRow> rows(CsvBatchReader reader) {
        List<BatchRow> rows = new ArrayList<>();
        reader.forEach(rows::add);
        return rows;
    }

    @Test
    void bomSemicolonCrlfQuotedLineBreaksAndExtraColumns() throws IOException {
        String text = "\uFEFFref_id;product_sku;customer_no;customer_no_zone;Note;max_price;Kode Cabang\r\n"
                + "A-1;ML86;12345678;2001;\"two\r\nlines; with \"\"quotes\"\"\";10000;JKT\r\n"
                + "\r\n"
                + "A-2;FF100;87654321;;plain;;\"SBY;01\"\r\n";
        try (CsvBatchReader reader = open(text)) {
            assertThat(reader.delimiter()).isEqualTo(';');
            assertThat(reader.extraHeaders()).containsExactly("Note", "Kode Cabang");
            List<BatchRow> rows = rows(reader);
            assertThat(rows).hasSize(2);
            BatchRow first = rows.get(0);
            assertThat(first.seq()).isZero();
            assertThat(first.line()).isEqualTo(2);
            assertThat(first.refId()).isEqualTo("A-1");
            assertThat(first.customerNoZone()).isEqualTo("2001");
            assertThat(first.maxPrice()).isEqualTo("10000");
            assertThat(first.extras()).containsExactly("two\r\nlines; with \"quotes\"", "JKT");
            assertThat(first.error()).isNull();
            BatchRow second = rows.get(1);
            assertThat(second.seq()).isEqualTo(1);
            assertThat(second.line()).isEqualTo(5);
            assertThat(second.customerNoZone()).isEmpty();
            assertThat(second.extras()).containsExactly("plain", "SBY;01");
        }
    }

    @Test
    void plainCommaLf() throws IOException {
        try (CsvBatchReader reader = open("ref_id,product_sku,customer_no\nR1,ML86,123456\nR2,ML86,654321\n")) {
            assertThat(reader.delimiter()).isEqualTo(',');
            assertThat(reader.extraHeaders()).isEmpty();
            List<BatchRow> rows = rows(reader);
            assertThat(rows).extracting(BatchRow::refId).containsExactly("R1", "R2");
            assertThat(rows).extracting(BatchRow::line).containsExactly(2L, 3L);
            assertThat(rows.get(0).customerNoZone()).isEmpty();
            assertThat(rows.get(0).maxPrice()).isEmpty();
        }
    }

    @Test
    void headerInAnyOrderCaseAndSpacing() throws IOException {
        try (CsvBatchReader reader = open(" Customer_No ,extra one, MAX_PRICE,Product_SKU , REF_ID\n"
                + " 0812345678 , keep  as is ,5000,PULSA5, R-9 \n")) {
            assertThat(reader.extraHeaders()).containsExactly("extra one");
            BatchRow row = rows(reader).get(0);
            assertThat(row.refId()).isEqualTo("R-9");
            assertThat(row.productSku()).isEqualTo("PULSA5");
            assertThat(row.customerNo()).isEqualTo("0812345678");
            assertThat(row.maxPrice()).isEqualTo("5000");
            assertThat(row.extras()).containsExactly(" keep  as is ");
        }
    }

    @Test
    void physicalLinesCountBlankLinesQuotedBreaksAndMixedLineEnds() throws IOException {
        String text = "\n\nref_id,product_sku,customer_no,note\r\n"   // header on line 3
                + "\n"                                                  // 4 blank
                + "R1,S,1,\"a\nb\r\nc\rd\"\n"                           // 5..8
                + ",,,\n"                                               // 9 empty fields only: ignored
                + "R2,S,2,x\r"                                          // 10 (old Mac line end)
                + "R3,S,3,\"\"\"\"\r\n"                                 // 11
                + "\r\n\r\n"                                            // 12, 13
                + "R4,S,4,\"\n\"";                                      // 14..15, no final line break
        try (CsvBatchReader reader = open(text)) {
            List<BatchRow> rows = rows(reader);
            assertThat(rows).extracting(BatchRow::refId).containsExactly("R1", "R2", "R3", "R4");
            assertThat(rows).extracting(BatchRow::line).containsExactly(5L, 10L, 11L, 14L);
            assertThat(rows).extracting(BatchRow::seq).containsExactly(0, 1, 2, 3);
            assertThat(rows.get(0).extras()).containsExactly("a\nb\r\nc\rd");
            assertThat(rows.get(2).extras()).containsExactly("\"");
        }
    }

    @Test
    void semicolonHeaderWithCommaInsideQuotesAndMissingTrailingFields() throws IOException {
        try (CsvBatchReader reader = open("\"ref_id\";\"product_sku, the SKU\";customer_no;product_sku\nR1;x;123;ML86\nR2\n")) {
            assertThat(reader.delimiter()).isEqualTo(';');
            List<BatchRow> rows = rows(reader);
            assertThat(rows.get(0).productSku()).isEqualTo("ML86");
            assertThat(rows.get(0).extras()).containsExactly("x");
            assertThat(rows.get(1).productSku()).isEmpty();
            assertThat(rows.get(1).error()).isNull();
        }
    }

    @Test
    void missingHeaderColumnIsUnreadable() {
        assertThatThrownBy(() -> open("a,b,c\n1,2,3\n"))
                .isInstanceOf(UnreadableBatchException.class)
                .hasMessage("header has no column ref_id, product_sku, customer_no (found: a, b, c)");
        assertThatThrownBy(() -> open("ref_id;product_sku;customer\n"))
                .hasMessage("header has no column customer_no (found: ref_id, product_sku, customer)");
    }

    @Test
    void emptyFileOrBlankOnlyIsUnreadable() {
        assertThatThrownBy(() -> open("")).isInstanceOf(UnreadableBatchException.class)
                .hasMessage("the file is empty: it has no header line");
        assertThatThrownBy(() -> open("\uFEFF\r\n\n,,\n")).hasMessage("the file is empty: it has no header line");
    }

    @Test
    void duplicateKnownColumnIsUnreadable() {
        assertThatThrownBy(() -> open("ref_id,product_sku,customer_no,REF_ID\n"))
                .hasMessageStartingWith("header has column ref_id more than once");
    }

    @Test
    void notUtf8IsReadAsWindows1252AsExcelWritesIt() throws IOException {
        byte[] cp1252 = "ref_id,product_sku,customer_no,name\nR1,S,1,Jos\u00e9 \u20ac\n".getBytes(CsvSniffer.WINDOWS_1252);
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(cp1252))) {
            assertThat(reader.encoding().shown()).isEqualTo("windows-1252");
            assertThat(rows(reader).get(0).extras()).containsExactly("Jos\u00e9 \u20ac");
        }
        byte[] utf8 = "ref_id,product_sku,customer_no,name\nR1,S,1,Jos\u00e9\n".getBytes(StandardCharsets.UTF_8);
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(utf8))) {
            assertThat(reader.encoding().shown()).isEqualTo("UTF-8");
            assertThat(rows(reader).get(0).extras()).containsExactly("Jos\u00e9");
        }
    }

    @Test
    void oneAccentAtTheEndOfALongFileMakesItWindows1252(@TempDir Path dir) throws IOException {
        // beyond the head the sniffer reads first: only a look at the whole file tells
        StringBuilder text = new StringBuilder("ref_id,product_sku,customer_no,name\n");
        for (int i = 0; text.length() < 600_000; i++) {
            text.append("R").append(i).append(",S,1,plain\n");
        }
        text.append("LAST,S,1,Jos\u00e9\n");
        Path file = dir.resolve("long.csv");
        Files.write(file, text.toString().getBytes(CsvSniffer.WINDOWS_1252));
        try (CsvBatchReader reader = CsvBatchReader.open(file)) {
            assertThat(reader.encoding().shown()).isEqualTo("windows-1252");
            List<BatchRow> rows = rows(reader);
            assertThat(rows.get(rows.size() - 1).extras()).containsExactly("Jos\u00e9");
        }
    }

    @Test
    void aSetCharsetIsUsedAndUtf8IsCheckedWithItsLine() throws IOException {
        byte[] header = "r\u00e9f_id,product_sku,customer_no\nR1,S,1\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> rows(CsvBatchReader.open(new ByteArrayInputStream(header), StandardCharsets.UTF_8, null,
                CsvBatchReader.MAX_ROW_CHARS, null)))
                .isInstanceOf(UnreadableBatchException.class)
                .hasMessage("not text: the file is not valid UTF-8 (near line 1); topup.input-charset is UTF-8");
        byte[] third = "ref_id,product_sku,customer_no\r\nR1,S,1\r\nR2,S,Jos\u00e9\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> rows(CsvBatchReader.open(new ByteArrayInputStream(third), StandardCharsets.UTF_8, null,
                CsvBatchReader.MAX_ROW_CHARS, null)))
                .hasMessage("not text: the file is not valid UTF-8 (near line 3); topup.input-charset is UTF-8");
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(third), StandardCharsets.ISO_8859_1, null,
                CsvBatchReader.MAX_ROW_CHARS, null)) {
            assertThat(reader.encoding().shown()).isEqualTo("ISO-8859-1");
            assertThat(rows(reader).get(1).customerNo()).isEqualTo("Jos\u00e9");
        }
    }

    @Test
    void bytesThatAreNeitherUtf8NorWindows1252AreNotText() {
        byte[] bytes = "ref_id,product_sku,customer_no\nR1,S,1\nR2,S,\u0081\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> rows(CsvBatchReader.open(new ByteArrayInputStream(bytes))))
                .isInstanceOf(UnreadableBatchException.class)
                .hasMessage("not text: the file is neither UTF-8 nor Windows-1252 (near line 3)");
    }

    @Test
    void byteOrderMarksOfUtf16AreHonouredAndTabIsADelimiter() throws IOException {
        String text = "ref_id\tproduct_sku\tcustomer_no\tname\r\nR1\tS\t1\t\u00d1and\u00fa, Jos\u00e9\r\n";
        for (var charset : List.of(StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE)) {
            byte[] mark = charset == StandardCharsets.UTF_16LE ? new byte[] {(byte) 0xFF, (byte) 0xFE} : new byte[] {(byte) 0xFE, (byte) 0xFF};
            byte[] body = text.getBytes(charset);
            byte[] file = new byte[mark.length + body.length];
            System.arraycopy(mark, 0, file, 0, mark.length);
            System.arraycopy(body, 0, file, mark.length, body.length);
            try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(file))) {
                assertThat(reader.encoding().shown()).isEqualTo(charset.name() + " with byte-order mark");
                assertThat(reader.delimiter()).isEqualTo('\t');
                BatchRow row = rows(reader).get(0);
                assertThat(row.refId()).isEqualTo("R1");
                assertThat(row.extras()).containsExactly("\u00d1and\u00fa, Jos\u00e9");
            }
        }
        // without a mark, a NUL after the first letter says UTF-16 (no CSV starts so)
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_16LE)))) {
            assertThat(reader.encoding().shown()).isEqualTo("UTF-16LE");
            assertThat(rows(reader)).hasSize(1);
        }
    }

    @Test
    void aLastRowCutShortIsNeverOrdered() throws IOException {
        String text = "ref_id,product_sku,customer_no,customer_no_zone,max_price,a,b,c\n"
                + "TB-1,SMART10,08811234567,,,x,y,z\n"
                + "TB-20261121-0010,SMART10,0881123456";
        try (CsvBatchReader reader = open(text)) {
            List<BatchRow> rows = rows(reader);
            assertThat(rows.get(0).error()).isNull();
            assertThat(rows.get(1).customerNo()).isEqualTo("0881123456");
            assertThat(rows.get(1).error()).isEqualTo("line 3: the file looks cut short: its last row has no line end and"
                    + " only 3 of 8 fields (an interrupted export or upload?); not ordered: send the whole file again");
        }
        // a whole last row without a line end is fine, and so is a short row with one
        try (CsvBatchReader reader = open("ref_id,product_sku,customer_no,note\nR1,S,1\nR2,S,2,n")) {
            assertThat(rows(reader)).extracting(BatchRow::error).containsOnlyNulls();
        }
    }

    @Test
    void blankLinesAndEmptyRowsOfEitherDelimiterBeforeTheHeaderAreSkipped() throws IOException {
        String text = "\n".repeat(66_000) + ";;;;;;;\r\n,,,,\r\n\t\t\n" + "ref_id,product_sku,customer_no\nR1,S,1\n";
        try (CsvBatchReader reader = open(text)) {
            assertThat(reader.delimiter()).isEqualTo(',');
            BatchRow row = rows(reader).get(0);
            assertThat(row.refId()).isEqualTo("R1");
            assertThat(row.line()).isEqualTo(66_005);
        }
    }

    @Test
    void aSpreadsheetRenamedToCsvIsNamedAsOne() {
        String expected = "not text: this looks like a spreadsheet file (xlsx/xls), not CSV: save it as \"CSV UTF-8\""
                + " and drop it again";
        // xlsx: a zip archive (local file header, then binary)
        byte[] xlsx = {'P', 'K', 3, 4, 20, 0, 6, 0, 8, 0, 0, 0, 33, 0, (byte) 0x9A, (byte) 0xC3, 'x', 'l'};
        assertThatThrownBy(() -> rows(CsvBatchReader.open(new ByteArrayInputStream(xlsx))))
                .isInstanceOf(UnreadableBatchException.class).hasMessage(expected);
        // xls: an OLE compound document
        byte[] xls = {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1, 0, 0, 0, 0};
        assertThatThrownBy(() -> rows(CsvBatchReader.open(new ByteArrayInputStream(xls))))
                .isInstanceOf(UnreadableBatchException.class).hasMessage(expected);
        // a CSV whose first column happens to start with PK is still a CSV
        assertThatThrownBy(() -> rows(CsvBatchReader.open(new ByteArrayInputStream(new byte[] {'P', 'K'}))))
                .isInstanceOf(UnreadableBatchException.class).hasMessageNotContaining("spreadsheet");
    }

    @Test
    void nulBytesAreNotText() {
        byte[] binaryLater = "ref_id,product_sku,customer_no\nR1,S,1\nR2,\0,2\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> rows(CsvBatchReader.open(new ByteArrayInputStream(binaryLater))))
                .isInstanceOf(UnreadableBatchException.class).hasMessage("not text: a NUL byte on line 3");
    }

    @Test
    void unterminatedQuoteAtEndBecomesAnErrorRowNamingItsLine() throws IOException {
        try (CsvBatchReader reader = open("ref_id,product_sku,customer_no\nR1,S,1\nR2,S,\"12\nR3,S,3\n")) {
            List<BatchRow> rows = rows(reader);
            assertThat(rows).hasSize(2);
            assertThat(rows.get(0).malformed()).isFalse();
            BatchRow bad = rows.get(1);
            assertThat(bad.line()).isEqualTo(3);
            assertThat(bad.seq()).isEqualTo(1);
            assertThat(bad.error()).isEqualTo("line 3: a quoted field starting on line 3 is never closed"
                    + " (unterminated quote at the end of the file)");
        }
    }

    @Test
    void textAfterClosingQuoteIsAnErrorRowAndReadingGoesOn() throws IOException {
        try (CsvBatchReader reader = open("ref_id,product_sku,customer_no\n\"R1\"x,S,1\nR2,S,2\n")) {
            List<BatchRow> rows = rows(reader);
            assertThat(rows).hasSize(2);
            assertThat(rows.get(0).error()).startsWith("line 2: a quoted field on line 2 has text after its closing quote");
            assertThat(rows.get(1).refId()).isEqualTo("R2");
            assertThat(rows.get(1).line()).isEqualTo(3);
        }
    }

    @Test
    void afterTextAfterAClosingQuoteReadingResumesAtTheNextPhysicalLine() throws IOException {
        String text = "ref_id,product_sku,customer_no,note\n"
                + "R1,S,1,\"a\nb\"x,\"c,d\"\n"               // 2..3, broken on line 3: the rest of line 3 goes
                + "R2,S,2,\"ok\r\nstill\"\r\n"               // 4..5
                + "\"R3\"y\rR4,S,4,x\r"                        // 6, 7 (CR line ends)
                + "\"R5\"z" + ",pad".repeat(3000) + "\r\n"   // 8, longer than a chunk
                + "R6,S,6,\"\"\"\"";                            // 9
        try (CsvBatchReader reader = open(text)) {
            List<BatchRow> rows = rows(reader);
            assertThat(rows).extracting(BatchRow::line).containsExactly(2L, 4L, 6L, 7L, 8L, 9L);
            assertThat(rows).extracting(BatchRow::refId).containsExactly("", "R2", "", "R4", "", "R6");
            assertThat(rows).extracting(BatchRow::malformed).containsExactly(true, false, true, false, true, false);
            assertThat(rows.get(0).error()).isEqualTo("line 2: a quoted field on line 2 has text after its closing"
                    + " quote (a quote inside a quoted field must be doubled)");
            assertThat(rows.get(1).extras()).containsExactly("ok\r\nstill");
            assertThat(rows.get(5).extras()).containsExactly("\"");
        }
    }

    /** The parser's input ends with the CR of a CRLF: the LF must not count as a line of its own. */
    @Test
    void resumingAfterALineWhoseCrlfIsSplitBetweenReads() throws IOException {
        String header = "ref_id,product_sku,customer_no\n";
        String bad = "\"R1\"x,S,";
        bad += "1".repeat(8191 - header.length() - bad.length());
        String text = header + bad + "\r\nR2,S,2\r\nR3,S,3\n";
        assertThat(text.indexOf('\r')).isEqualTo(8191);
        try (CsvBatchReader reader = open(text)) {
            List<BatchRow> rows = rows(reader);
            assertThat(rows).extracting(BatchRow::line).containsExactly(2L, 3L, 4L);
            assertThat(rows).extracting(BatchRow::refId).containsExactly("", "R2", "R3");
        }
    }

    /** Commons CSV allows spaces between a closing quote and the delimiter; the lexer before it did not. */
    @Test
    void spacesAfterAClosingQuoteAreAllowed() throws IOException {
        try (CsvBatchReader reader = open("ref_id,product_sku,customer_no\n\"R1\"  ,S,1\n")) {
            BatchRow row = rows(reader).get(0);
            assertThat(row.malformed()).isFalse();
            assertThat(row.refId()).isEqualTo("R1");
        }
    }

    @Test
    void brokenHeaderIsUnreadable() {
        assertThatThrownBy(() -> open("\"ref_id\"x,product_sku,customer_no\nR1,S,1\n"))
                .isInstanceOf(UnreadableBatchException.class)
                .hasMessageStartingWith("the header line cannot be read: a quoted field on line 1 has text after");
    }

    @Test
    void aParseErrorNamesTheFileAndTheLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("march.csv");
        Files.writeString(file, "\n\"ref_id\"x,product_sku,customer_no\nR1,S,1\n");
        assertThatThrownBy(() -> CsvBatchReader.open(file)).isInstanceOf(UnreadableBatchException.class)
                .cause().isInstanceOf(CsvParseException.class)
                .satisfies(e -> assertThat(((CsvParseException) e).where()).isEqualTo("march.csv, line 2"));
    }

    @Test
    void nulByteLineCountsQuotedLineBreaks() {
        byte[] text = "ref_id,product_sku,customer_no\nR1,S,\"1\r\n2\"\nR2,S,\0\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> rows(CsvBatchReader.open(new ByteArrayInputStream(text))))
                .isInstanceOf(UnreadableBatchException.class).hasMessage("not text: a NUL byte on line 4");
    }

    @Test
    void tooManyFieldsIsAnErrorRow() throws IOException {
        try (CsvBatchReader reader = open("ref_id,product_sku,customer_no\nR1,S,1,000\n")) {
            BatchRow row = rows(reader).get(0);
            assertThat(row.refId()).isEqualTo("R1");
            assertThat(row.error()).isEqualTo("line 2: the row has 4 fields but the header has 3 columns"
                    + " (a value holding ',' must be quoted)");
        }
    }

    @Test
    void anOverlongRowIsRejectedAndTheRestRead() throws IOException {
        String text = "ref_id,product_sku,customer_no,note\nR1,S,1," + "x".repeat(500) + "\nR2,S,\"" + "y".repeat(500) + "\nR3,S,3\n";
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 100)) {
            List<BatchRow> rows = rows(reader);
            assertThat(rows).extracting(BatchRow::error).containsExactly(
                    "line 2: the row is longer than 100 characters; it was not read (the rest of the file was)",
                    "line 3: the row is longer than 100 characters; it was not read (the rest of the file was)",
                    null);
            assertThat(rows.get(2).refId()).isEqualTo("R3");
        }
    }

    @Test
    void theRowLimitIsExactWhateverTheChunks() throws IOException {
        // the limit is noticed while reading in chunks of 8 Ki characters, or when the row ends within one
        String header = "ref_id,product_sku,customer_no,note\n";
        String prefix = "R1,S,1,";
        for (String end : List.of("\n", "\r\n")) {
            String exact = prefix + "x".repeat(10_000 - prefix.length());
            String over = prefix + "x".repeat(10_001 - prefix.length());
            String text = header + exact + end + over + end + "R3,S,3" + end;
            try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 10_000)) {
                assertThat(rows(reader)).extracting(BatchRow::error).containsExactly(null,
                        "line 3: the row is longer than 10000 characters; it was not read (the rest of the file was)", null);
            }
        }
    }

    @Test
    void anUnclosedQuoteOverManyLinesStopsInsteadOfFillingMemory() throws IOException {
        String text = "ref_id,product_sku,customer_no\nR1,S,\"" + "x\n".repeat(100) + "R2,S,2\n";
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 100)) {
            List<BatchRow> rows = rows(reader);
            assertThat(rows).hasSize(1);
            assertThat(rows.get(0).error()).contains("longer than 100 characters").contains("line 2")
                    .contains("the rest of the file was not read");
        }
    }

    @Test
    void readsAPathAndCanBeIteratedOnlyOnce(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("b.csv");
        Files.writeString(file, "ref_id,product_sku,customer_no\nR1,S,1\n");
        try (CsvBatchReader reader = CsvBatchReader.open(file)) {
            assertThat(reader.stream().map(BatchRow::refId)).containsExactly("R1");
            assertThatThrownBy(reader::iterator).isInstanceOf(IllegalStateException.class);
        }
    }

    /** 200 000 rows generated on the fly: reading them through must not keep them. */
    @Test
    void streamsWithoutAccumulating() throws IOException {
        int total = 200_000;
        Runtime rt = Runtime.getRuntime();
        long baseline = 0;
        long count = 0;
        long lastLine = 0;
        try (CsvBatchReader reader = CsvBatchReader.open(new GeneratedBatch(total))) {
            for (BatchRow row : reader) {
                count++;
                lastLine = row.line();
                if (count == 20_000) {
                    baseline = usedAfterGc(rt);
                }
            }
        }
        long growth = usedAfterGc(rt) - baseline;
        assertThat(count).isEqualTo(total);
        assertThat(lastLine).isEqualTo(total * 2L); // every row spans two lines (quoted break)
        // 180 000 kept rows would be well over 50 MB; allow GC noise far below that
        assertThat(growth).isLessThan(16L * 1024 * 1024);
    }

    private static long usedAfterGc(Runtime rt) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    /** A batch file produced row by row, never held whole. */
    static final class GeneratedBatch extends InputStream {
        private final int rows;
        private int row = -1;
        private byte[] current = "ref_id;product_sku;customer_no;note\r\n".getBytes(StandardCharsets.UTF_8);
        private int pos;

        GeneratedBatch(int rows) {
            this.rows = rows;
        }

        @Override
        public int read() {
            if (pos == current.length) {
                row++;
                if (row >= rows) {
                    return -1;
                }
                current = ("REF-" + row + ";ML86;12345678;\"note\r\nfor row " + row + "\"\r\n")
                        .getBytes(StandardCharsets.UTF_8);
                pos = 0;
            }
            return current[pos++] & 0xff;
        }
    }
}
