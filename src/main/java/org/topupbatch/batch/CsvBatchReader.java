package org.topupbatch.batch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Reads a batch file (CONTRACT.md section 3) as a stream of {@link BatchRow}s: UTF-8 with or
 * without a byte-order mark, {@code ,} or {@code ;} detected from the header line, CRLF or LF,
 * RFC 4180 quoting, blank lines (also lines of empty fields only, as spreadsheets export them)
 * ignored. Opening reads only the header; rows are read one at a time as the iterator advances,
 * so memory does not grow with the file.
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
    private final CsvLexer lexer;
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

    public static CsvBatchReader open(Path file) throws IOException {
        return open(Files.newInputStream(file));
    }

    /** Takes ownership of {@code in}: closing the reader closes it, also when opening fails. */
    public static CsvBatchReader open(InputStream in) throws IOException {
        return open(in, DEFAULT_MAX_RECORD_CHARS);
    }

    static CsvBatchReader open(InputStream in, int maxRecordChars) throws IOException {
        // REPORT, not the default REPLACE: a file that is not UTF-8 must be refused, not garbled
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        BufferedReader source = new BufferedReader(new InputStreamReader(in, decoder), 64 * 1024);
        try {
            return new CsvBatchReader(source, maxRecordChars);
        } catch (IOException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    private CsvBatchReader(BufferedReader source, int maxRecordChars) throws IOException {
        this.source = source;
        try {
            skipByteOrderMark(source);
            this.delimiter = sniffDelimiter(source);
        } catch (CharacterCodingException e) {
            throw new UnreadableBatchException("not text: the file is not valid UTF-8", e);
        }
        this.lexer = new CsvLexer(source, delimiter, 1, maxRecordChars);
        CsvLexer.Record header = nextRecord("the header line");
        while (header != null && allBlank(header.fields())) {
            header = nextRecord("the header line");
        }
        if (header == null) {
            throw new UnreadableBatchException("the file is empty: it has no header line");
        }
        this.headers = List.copyOf(header.fields());
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
                CsvLexer.Record record;
                try {
                    record = lexer.next();
                } catch (MalformedCsvException e) {
                    if (!e.resumable) {
                        done = true;
                    }
                    return new BatchRow(seq++, e.line, "", "", "", "", "",
                            Collections.nCopies(extraHeaders.size(), ""), "line " + e.line + ": " + e.getMessage());
                } catch (CharacterCodingException e) {
                    throw new UnreadableBatchException("not text: the file is not valid UTF-8 (near line "
                            + lexer.line() + ")", e);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
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

    private BatchRow toRow(int seq, CsvLexer.Record record) {
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

    private CsvLexer.Record nextRecord(String what) throws IOException {
        try {
            return lexer.next();
        } catch (MalformedCsvException e) {
            throw new UnreadableBatchException(what + " cannot be read: " + e.getMessage());
        } catch (CharacterCodingException e) {
            throw new UnreadableBatchException("not text: the file is not valid UTF-8", e);
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
