package org.topupbatch.intake;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.topupbatch.journal.BatchEncoding;

/**
 * Reads a batch file (docs/batch-files-and-reports.md#input-file) as a stream of {@link BatchRow}s: UTF-8, UTF-16 or
 * Windows-1252 ({@link CsvSniffer}), {@code ,}, {@code ;} or tab detected from the header line,
 * CRLF, LF or CR, RFC 4180 quoting, blank lines (also lines of empty fields only, as spreadsheets
 * export them) ignored. Opening reads only the header; rows are read one at a time as the iterator advances,
 * so memory does not grow with the file.
 *
 * <p>The jobs are apart: {@link CsvSniffer} decides what text the file is (encoding, byte-order
 * mark, delimiter), {@link CsvRecords} parses records and their lines, {@link BatchColumns} maps
 * the header's columns to a row's fields, {@link BatchRowIterator} turns records into rows.
 *
 * <p>{@link #open} throws {@link UnreadableBatchException} for a file without a usable header.
 * Iterating throws it when the file turns out not to be text (invalid UTF-8, NUL bytes); a row
 * with broken quoting instead comes back as a {@link BatchRow#malformed() malformed} row naming its
 * line (from a {@link CsvParseException}). Single use: one iterator per reader.
 */
public final class CsvBatchReader implements Iterable<BatchRow>, AutoCloseable {

    public static final List<String> REQUIRED_COLUMNS = BatchColumns.REQUIRED;
    public static final List<String> OPTIONAL_COLUMNS = BatchColumns.OPTIONAL;

    /**
     * A row longer than this is rejected and the rest of the file read: no top-up row needs more,
     * and memory stays flat however wide a row of a broken export is.
     */
    public static final int MAX_ROW_CHARS = 64 * 1024;

    private final BufferedReader source;
    private final char delimiter;
    private final BatchEncoding encoding;
    private final CsvRecords records;
    private final BatchColumns columns;
    private boolean iterated;

    public static CsvBatchReader open(Path file) throws IOException {
        return open(file, null);
    }

    /** {@code charset}: what {@code topup.input-charset} sets, null for auto. */
    public static CsvBatchReader open(Path file, Charset charset) throws IOException {
        return open(Files.newInputStream(file), charset, file, MAX_ROW_CHARS, file.getFileName().toString());
    }

    /** Takes ownership of {@code in}: closing the reader closes it, also when opening fails. */
    public static CsvBatchReader open(InputStream in) throws IOException {
        return open(in, null, null, MAX_ROW_CHARS, null);
    }

    static CsvBatchReader open(InputStream in, int maxRecordChars) throws IOException {
        return open(in, null, null, maxRecordChars, null);
    }

    /** {@code input} names the file in parse errors; null when it has no name. */
    static CsvBatchReader open(InputStream in, Charset charset, Path wholeFile, int maxRecordChars, String input)
            throws IOException {
        CsvSniffer.Sniffed text = CsvSniffer.sniff(in, charset, wholeFile);
        try {
            return new CsvBatchReader(text, maxRecordChars, input);
        } catch (IOException | RuntimeException e) {
            text.text().close();
            throw e;
        }
    }

    private CsvBatchReader(CsvSniffer.Sniffed text, int maxRecordChars, String input) throws IOException {
        this.source = text.text();
        this.delimiter = text.delimiter();
        this.encoding = text.encoding();
        this.records = new CsvRecords(source, delimiter, encoding.charset(), maxRecordChars, input,
                text.linesBeforeHeader());
        List<String> header = nextHeaderRecord();
        while (header != null && CsvRecords.allBlank(header)) {
            header = nextHeaderRecord();
        }
        if (header == null) {
            throw new UnreadableBatchException("the file is empty: it has no header line");
        }
        this.columns = new BatchColumns(header);
    }

    private List<String> nextHeaderRecord() {
        try {
            CsvRecords.Read header = records.next();
            return header == null ? null : header.fields();
        } catch (CsvParseException e) {
            throw new UnreadableBatchException("the header line cannot be read: " + e.getMessage(), e);
        }
    }

    /** The detected delimiter, {@code ,}, {@code ;} or tab. */
    public char delimiter() {
        return delimiter;
    }

    /** The encoding the file was read in. */
    public BatchEncoding encoding() {
        return encoding;
    }

    /** The header line's column names, exactly as written. */
    public List<String> headers() {
        return columns.headers();
    }

    /** Names of the columns that are not ref_id, product_sku, customer_no, customer_no_zone, max_price, as written, in file order. */
    public List<String> extraHeaders() {
        return columns.extraHeaders();
    }

    @Override
    public Iterator<BatchRow> iterator() {
        if (iterated) {
            throw new IllegalStateException("a batch file can be read only once");
        }
        iterated = true;
        return new BatchRowIterator(records, columns, delimiter);
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
}
