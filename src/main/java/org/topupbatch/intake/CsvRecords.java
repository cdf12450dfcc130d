package org.topupbatch.intake;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The records of a batch file, blank ones included, each with the physical line it starts on.
 *
 * <p>Commons CSV parses (RFC 4180 with the sniffed delimiter). Empty lines are not skipped by the
 * parser but come back as records of one empty field, so each record starts on the line after the
 * ones the parser has consumed ({@link CSVParser#getCurrentLineNumber()}): that is the record's
 * physical line, line breaks inside quoted fields included. The characters reach the parser
 * through a {@link LineChunkReader}, which refuses binary input, bounds the length of a record and
 * lets a new parser take over at the next line after a malformed record.
 */
final class CsvRecords {

    /**
     * A record as read, and the physical line it starts on. {@code unterminated}: the file ends
     * right after it without a line end (the last line of a file cut short, or of an editor that
     * writes none).
     */
    record Read(long line, List<String> fields, boolean unterminated) {
    }

    private final String input;
    private final LineChunkReader chars;
    private final CSVFormat format;
    private final int maxRecordChars;

    // the parser in use: a new one takes over after a malformed record
    private CSVParser parser;
    private Iterator<CSVRecord> records;
    /** Physical lines before the current parser's first character. */
    private long parserFirstLine;
    /** Physical lines before the next record: the lines consumed so far. */
    private long linesBefore;

    /**
     * {@code input} names the file in parse errors (null: no name); {@code charset} the encoding in
     * "not text" errors; {@code linesBefore} are the physical lines before the text (skipped blank lines).
     */
    CsvRecords(Reader text, char delimiter, java.nio.charset.Charset charset, int maxRecordChars, String input,
               long linesBefore) throws IOException {
        this.input = input;
        this.maxRecordChars = maxRecordChars;
        this.format = CSVFormat.RFC4180.builder()
                .setDelimiter(delimiter)
                .setIgnoreEmptyLines(false) // blank records are dropped by the caller, see the class comment
                .get();
        this.chars = new LineChunkReader(text, charset, maxRecordChars, linesBefore);
        startParser(linesBefore);
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
    Read next() throws CsvParseException {
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
        long length = chars.recordChars();
        chars.recordEnded();
        // the parser stands right after the record's line break: the lines it consumed are whole
        linesBefore = parserFirstLine + parser.getCurrentLineNumber();
        if (length > maxRecordChars) {
            throw new CsvParseException(input, line, tooLong(), true);
        }
        return new Read(line, record.toList(), chars.atEnd() && !chars.atLineStart());
    }

    private String tooLong() {
        return "the row is longer than " + maxRecordChars + " characters; it was not read (the rest of the file was)";
    }

    /** Translates a failure of the parser on the record starting on {@code line}. */
    private CsvParseException malformed(long line, UncheckedIOException e) {
        Throwable cause = e.getCause();
        if (cause instanceof LineChunkReader.RecordTooLongException) {
            if (!chars.recordOnOneLine()) {
                // an unclosed quote has swallowed line breaks: where the next record starts is anybody's guess
                return new CsvParseException(input, line, "the record starting on line " + line + " is longer than "
                        + maxRecordChars + " characters (an unclosed quote?); the rest of the file was not read", false);
            }
            // one over-long line: drop it, the next line starts the next record
            try {
                chars.skipRestOfLine();
                startParser(chars.lineBreaks());
            } catch (IOException io) {
                throw new UncheckedIOException(io);
            }
            return new CsvParseException(input, line, tooLong(), true);
        }
        if (!(cause instanceof CSVException)) {
            throw e; // reading the file failed
        }
        if (chars.atEnd()) {
            // the parser met the end of the file inside a quoted field
            return new CsvParseException(input, line, "a quoted field starting on line " + line
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
            return new CsvParseException(input, line, "a quoted field on line " + line + " has text after its"
                    + " closing quote (a quote inside a quoted field must be doubled)", true);
        }
        return new CsvParseException(input, line, "the record starting on line " + line + " cannot be read ("
                + cause.getMessage() + "); reading went on with the next line", true);
    }

    /** A record of blanks only (also an empty line): spreadsheets export such lines, the reader skips them. */
    static boolean allBlank(List<String> fields) {
        for (String f : fields) {
            if (!f.isBlank()) {
                return false;
            }
        }
        return true;
    }
}
