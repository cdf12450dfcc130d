package org.topupbatch.intake;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads a batch file (README, "Input file") as a stream of {@link BatchRow}s: UTF-8 with or
 * without a byte-order mark, {@code ,} or {@code ;} detected from the header line, CRLF, LF or CR,
 * RFC 4180 quoting, blank lines (also lines of empty fields only, as spreadsheets export them)
 * ignored. Opening reads only the header; rows are read one at a time as the iterator advances,
 * so memory does not grow with the file.
 *
 * <p>The CSV itself is parsed by Commons CSV ({@link CSVParser}, format RFC 4180 with the sniffed
 * delimiter). Empty lines are not skipped by the parser but come back as records of one empty
 * field and are dropped here, so each record starts on the line after the ones the parser has
 * consumed ({@link CSVParser#getCurrentLineNumber()}): that is the row's physical line, line breaks
 * inside quoted fields included. The characters reach the parser through a {@link LineChunkReader},
 * which refuses binary input, bounds the length of a record and lets a new parser take over at the
 * next line after a malformed record.
 *
 * <p>{@link #open} throws {@link UnreadableBatchException} for a file without a usable header.
 * Iterating throws it when the file turns out not to be text (invalid UTF-8, NUL bytes); a row
 * with broken quoting instead comes back as a {@link BatchRow#malformed() malformed} row naming its
 * line. Single use: one iterator per reader.
 */
public final class CsvBatchReader implements Iterable<BatchRow>, AutoCloseable {

    public static final List<String> REQUIRED_COLUMNS = List.of("ref_id", "product_sku", "customer_no");
    public static final List<String> OPTIONAL_COLUMNS = List.of("customer_no_zone", "max_price");

    static final int MAX_HEADER_CHARS = 64 * 1024;
    static final int DEFAULT_MAX_RECORD_CHARS = 1024 * 1024;

    private final BufferedReader source;
    private final LineChunkReader chars;
    private final CSVFormat format;
    private final int maxRecordChars;
    private final char delimiter;
    private final List<String> headers;
    private final List<String> extraHeaders;
    private final int[] extraIndexes;
    private final int refId;
    private final int productSku;
    private final int customerNo;
    private final int customerNoZone;
    private final int maxPrice;
    private boolean iterated;

    // the parser in use: a new one takes over after a malformed record
    private CSVParser parser;
    private Iterator<CSVRecord> records;
    /** Physical lines before the current parser's first character. */
    private long parserFirstLine;
    /** Physical lines before the next record: the lines consumed so far. */
    private long linesBefore;

    public static CsvBatchReader open(Path file) throws IOException {
        return open(Files.newInputStream(file));
    }

    /** Takes ownership of {@code in}: closing the reader closes it, also when opening fails. */
    public static CsvBatchReader open(InputStream in) throws IOException {
        return open(in, DEFAULT_MAX_RECORD_CHARS);
    }

    static CsvBatchReader open(InputStream in, int maxRecordChars) throws IOException {
        BufferedInputStream bytes = new BufferedInputStream(in, HEAD_BYTES);
        long headLines;
        try {
            headLines = refuseNonText(bytes);
        } catch (IOException | RuntimeException e) {
            bytes.close();
            throw e;
        }
        // REPORT, not the default REPLACE: a file that is not UTF-8 must be refused, not garbled
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        BufferedReader source = new BufferedReader(new InputStreamReader(bytes, decoder), 64 * 1024);
        try {
            return new CsvBatchReader(source, maxRecordChars, headLines);
        } catch (IOException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    private CsvBatchReader(BufferedReader source, int maxRecordChars, long headLines) throws IOException {
        this.source = source;
        this.maxRecordChars = maxRecordChars;
        try {
            skipByteOrderMark(source);
            this.delimiter = sniffDelimiter(source);
        } catch (CharacterCodingException e) {
            // the decoder reads ahead of the header: the bad bytes lie beyond the head already checked
            throw new UnreadableBatchException("not text: the file is not valid UTF-8 (near line "
                    + (headLines + 1) + ")", e);
        }
        this.format = CSVFormat.RFC4180.builder()
                .setDelimiter(delimiter)
                .setIgnoreEmptyLines(false) // see the class comment: blank records are dropped here
                .get();
        this.chars = new LineChunkReader(source, maxRecordChars);
        startParser(0);
        List<String> header = nextHeaderRecord();
        while (header != null && allBlank(header)) {
            header = nextHeaderRecord();
        }
        if (header == null) {
            throw new UnreadableBatchException("the file is empty: it has no header line");
        }
        this.headers = List.copyOf(header);
        List<String> names = new ArrayList<>();
        for (String h : headers) {
            names.add(h.trim().toLowerCase(Locale.ROOT));
        }
        List<String> missing = new ArrayList<>();
        for (String required : REQUIRED_COLUMNS) {
            if (!names.contains(required)) {
                missing.add(required);
            }
        }
        if (!missing.isEmpty()) {
            throw new UnreadableBatchException("header has no column " + String.join(", ", missing)
                    + " (found: " + String.join(", ", headers) + ")");
        }
        for (String known : concat(REQUIRED_COLUMNS, OPTIONAL_COLUMNS)) {
            if (names.indexOf(known) != names.lastIndexOf(known)) {
                throw new UnreadableBatchException("header has column " + known + " more than once"
                        + " (found: " + String.join(", ", headers) + ")");
            }
        }
        this.refId = names.indexOf("ref_id");
        this.productSku = names.indexOf("product_sku");
        this.customerNo = names.indexOf("customer_no");
        this.customerNoZone = names.indexOf("customer_no_zone");
        this.maxPrice = names.indexOf("max_price");
        List<String> extras = new ArrayList<>();
        List<Integer> extraIdx = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!REQUIRED_COLUMNS.contains(names.get(i)) && !OPTIONAL_COLUMNS.contains(names.get(i))) {
                extras.add(headers.get(i));
                extraIdx.add(i);
            }
        }
        this.extraHeaders = List.copyOf(extras);
        this.extraIndexes = extraIdx.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The detected delimiter, {@code ,} or {@code ;}. */
    public char delimiter() {
        return delimiter;
    }

    /** The header line's column names, exactly as written. */
    public List<String> headers() {
        return headers;
    }

    /** Names of the columns that are not ref_id, product_sku, customer_no, customer_no_zone, max_price, as written, in file order. */
    public List<String> extraHeaders() {
        return extraHeaders;
    }

    @Override
    public Iterator<BatchRow> iterator() {
        if (iterated) {
            throw new IllegalStateException("a batch file can be read only once");
        }
        iterated = true;
        return new RowIterator();
    }

    public Stream<BatchRow> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(),
                Spliterator.ORDERED | Spliterator.NONNULL), false);
    }

    @Override
    public void close() {
        try {
            source.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private final class RowIterator implements Iterator<BatchRow> {
        private BatchRow next;
        private boolean done;
        private int seq;

        @Override
        public boolean hasNext() {
            if (next == null && !done) {
                next = advance();
                if (next == null) {
                    done = true;
                }
            }
            return next != null;
        }

        @Override
        public BatchRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            BatchRow row = next;
            next = null;
            return row;
        }

        private BatchRow advance() {
            while (true) {
                Read record;
                try {
                    record = nextRecord();
                } catch (MalformedCsvException e) {
                    if (!e.resumable) {
                        done = true;
                    }
                    return new BatchRow(seq++, e.line, "", "", "", "", "",
                            Collections.nCopies(extraHeaders.size(), ""), "line " + e.line + ": " + e.getMessage());
                }
                if (record == null) {
                    return null;
                }
                if (allBlank(record.fields())) {
                    continue;
                }
                return toRow(seq++, record);
            }
        }
    }

    /** A record as read, and the physical line it starts on. */
    private record Read(long line, List<String> fields) {
    }

    private void startParser(long linesBeforeIt) throws IOException {
        parser = format.parse(chars);
        records = parser.iterator();
        parserFirstLine = linesBeforeIt;
        linesBefore = linesBeforeIt;
    }

    /**
     * The next record, blank ones included, or null at the end of the file. Throws
     * {@link UnreadableBatchException} (from {@link LineChunkReader}) when the file is not text.
     */
    private Read nextRecord() throws MalformedCsvException {
        long line = linesBefore + 1;
        CSVRecord record;
        try {
            record = records.hasNext() ? records.next() : null;
        } catch (UncheckedIOException e) {
            throw malformed(line, e);
        }
        if (record == null) {
            return null;
        }
        chars.recordEnded();
        // the parser stands right after the record's line break: the lines it consumed are whole
        linesBefore = parserFirstLine + parser.getCurrentLineNumber();
        return new Read(line, record.toList());
    }

    /** Translates a failure of the parser on the record starting on {@code line}. */
    private MalformedCsvException malformed(long line, UncheckedIOException e) {
        Throwable cause = e.getCause();
        if (cause instanceof LineChunkReader.RecordTooLongException) {
            return new MalformedCsvException(line, "the record starting on line " + line + " is longer than "
                    + maxRecordChars + " characters (an unclosed quote?); the rest of the file was not read", false);
        }
        if (!(cause instanceof CSVException)) {
            throw e; // reading the file failed
        }
        if (chars.atEnd()) {
            // the parser met the end of the file inside a quoted field
            return new MalformedCsvException(line, "a quoted field starting on line " + line
                    + " is never closed (unterminated quote at the end of the file)", false);
        }
        // the parser is somewhere inside the line: a new one takes over at the start of the next line
        try {
            chars.skipRestOfLine();
            startParser(chars.lineBreaks());
        } catch (IOException io) {
            throw new UncheckedIOException(io);
        }
        if (cause.getMessage() != null && cause.getMessage().startsWith("Invalid character between encapsulated token")) {
            // with RFC 4180 (no escape character, no comments) the one error before the end of the file
            return new MalformedCsvException(line, "a quoted field on line " + line + " has text after its"
                    + " closing quote (a quote inside a quoted field must be doubled)", true);
        }
        return new MalformedCsvException(line, "the record starting on line " + line + " cannot be read ("
                + cause.getMessage() + "); reading went on with the next line", true);
    }

    private BatchRow toRow(int seq, Read record) {
        List<String> f = record.fields();
        List<String> extras = new ArrayList<>(extraIndexes.length);
        for (int i : extraIndexes) {
            extras.add(i < f.size() ? f.get(i) : "");
        }
        String error = null;
        if (f.size() > headers.size()) {
            // usually a delimiter inside an unquoted value: the fields are shifted, trust none
            error = "line " + record.line() + ": the row has " + f.size() + " fields but the header has "
                    + headers.size() + " columns (a value holding '" + delimiter + "' must be quoted)";
        }
        return new BatchRow(seq, record.line(), field(f, refId), field(f, productSku), field(f, customerNo),
                field(f, customerNoZone), field(f, maxPrice), Collections.unmodifiableList(extras), error);
    }

    private static String field(List<String> fields, int index) {
        return index >= 0 && index < fields.size() ? fields.get(index).trim() : "";
    }

    private List<String> nextHeaderRecord() {
        try {
            Read header = nextRecord();
            return header == null ? null : header.fields();
        } catch (MalformedCsvException e) {
            throw new UnreadableBatchException("the header line cannot be read: " + e.getMessage());
        }
    }

    private static boolean allBlank(List<String> fields) {
        for (String f : fields) {
            if (!f.isBlank()) {
                return false;
            }
        }
        return true;
    }

    /** An xlsx file is a zip archive; an old xls file an OLE compound document. */
    private static final byte[][] SPREADSHEET_SIGNATURES = {
            {'P', 'K', 3, 4},
            {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1},
    };

    /** The start of the file checked before it is decoded: more than the decoder reads ahead of the header. */
    private static final int HEAD_BYTES = 256 * 1024;

    /**
     * Checks the file's head before the decoder reads ahead into it: a workbook renamed to .csv is the
     * commonest "CSV" that is no text at all, so it is named with how to export it; invalid UTF-8 is
     * named with its line (the decoder alone would only say that some byte of its read-ahead is bad).
     * Leaves the stream where it was; returns the line breaks in the head checked.
     */
    private static long refuseNonText(BufferedInputStream in) throws IOException {
        in.mark(HEAD_BYTES);
        byte[] head = in.readNBytes(HEAD_BYTES);
        in.reset();
        for (byte[] signature : SPREADSHEET_SIGNATURES) {
            if (head.length >= signature.length && Arrays.equals(head, 0, signature.length, signature, 0, signature.length)) {
                throw new UnreadableBatchException("not text: this looks like a spreadsheet file (xlsx/xls), not CSV:"
                        + " save it as \"CSV UTF-8\" and drop it again");
            }
        }
        ByteBuffer bytes = ByteBuffer.wrap(head);
        CharBuffer chars = CharBuffer.allocate(1024);
        var decoder = StandardCharsets.UTF_8.newDecoder();
        while (true) {
            // not the end of input: a character cut off at the end of the head is no error
            CoderResult result = decoder.decode(bytes, chars, false);
            chars.clear();
            if (result.isUnderflow()) {
                return lineBreaks(head, head.length);
            }
            if (result.isError()) {
                throw new UnreadableBatchException("not text: the file is not valid UTF-8 (near line "
                        + (lineBreaks(head, bytes.position()) + 1) + ")");
            }
        }
    }

    /** LF, CRLF and a lone CR each end a line. */
    private static long lineBreaks(byte[] bytes, int end) {
        long breaks = 0;
        for (int i = 0; i < end; i++) {
            if (bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 >= bytes.length || bytes[i + 1] != '\n'))) {
                breaks++;
            }
        }
        return breaks;
    }

    private static void skipByteOrderMark(BufferedReader in) throws IOException {
        in.mark(1);
        if (in.read() != '\uFEFF') {
            in.reset();
        }
    }

    /**
     * Counts {@code ;} and {@code ,} outside quotes on the first line with text, then rewinds.
     * The more frequent wins; a tie (also none at all) means {@code ,}.
     */
    static char sniffDelimiter(BufferedReader in) throws IOException {
        in.mark(MAX_HEADER_CHARS + 1);
        int semicolons = 0;
        int commas = 0;
        boolean quoted = false;
        boolean content = false;
        for (int read = 0; ; read++) {
            if (read > MAX_HEADER_CHARS) {
                throw new UnreadableBatchException("the header line is longer than " + MAX_HEADER_CHARS
                        + " characters");
            }
            int c = in.read();
            if (c == -1) {
                break;
            }
            if (c == '\0') {
                throw new UnreadableBatchException("not text: a NUL byte in the header line");
            }
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == '\r' || c == '\n')) {
                if (content) {
                    break;
                }
                // a line of blanks and delimiters only is skipped by the reader: count afresh
                semicolons = 0;
                commas = 0;
                continue;
            } else if (!quoted && c == ';') {
                semicolons++;
                continue;
            } else if (!quoted && c == ',') {
                commas++;
                continue;
            }
            if (!Character.isWhitespace(c)) {
                content = true;
            }
        }
        in.reset();
        return semicolons > commas ? ';' : ',';
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
