package org.topupbatch.batch;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * A streaming RFC 4180 record reader that knows the physical line each record starts on.
 *
 * <p>Why not Commons CSV's parser: its record numbers and line counter do not give the start line
 * of a record after blank lines and quoted line breaks, and Commons CSV 1.14's parser needs
 * commons-io 2.17+, newer than the one this build resolves. Writing is still done with CSVPrinter.
 *
 * <p>CR, LF and CRLF each end one physical line, inside quoted fields too (the value keeps them as
 * written). Empty lines are skipped. A stray quote inside an unquoted field is kept as a character
 * (spreadsheets write such fields). Memory is bounded by {@code maxRecordChars}: a record longer than
 * that (typically an unclosed quote swallowing the file) is reported instead of read on.
 */
final class CsvLexer {
    private static final int EOF = -1;

    private final Reader in;
    private final char delimiter;
    private final int maxRecordChars;
    private final char[] buf = new char[8192];
    private int pos;
    private int lim;
    private long line;

    /** {@code firstLine} is the physical line number of the first character the reader gives. */
    CsvLexer(Reader in, char delimiter, long firstLine, int maxRecordChars) {
        this.in = in;
        this.delimiter = delimiter;
        this.line = firstLine;
        this.maxRecordChars = maxRecordChars;
    }

    /** The physical line the lexer is on now. */
    long line() {
        return line;
    }

    /** A record and the physical line it starts on. */
    record Record(long line, List<String> fields) {
    }

    /** The next non-empty record, or null at the end of the input. */
    Record next() throws IOException, MalformedCsvException {
        while (true) {
            int c = peek();
            if (c == EOF) {
                return null;
            }
            if (c == '\r' || c == '\n') {
                consumeLineBreak();
                continue;
            }
            return readRecord();
        }
    }

    private Record readRecord() throws IOException, MalformedCsvException {
        long start = line;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int recordChars = 0;
        while (true) {
            // at the start of a field
            int c = read();
            if (c == '"') {
                recordChars = readQuoted(field, start, recordChars);
                c = read();
                if (c != delimiter && c != '\r' && c != '\n' && c != EOF) {
                    skipRestOfLine(c);
                    throw new MalformedCsvException(start,
                            "a quoted field on line " + start + " has text after its closing quote"
                                    + " (a quote inside a quoted field must be doubled)", true);
                }
            } else {
                while (c != delimiter && c != '\r' && c != '\n' && c != EOF) {
                    field.append((char) c);
                    recordChars = count(recordChars, start);
                    c = read();
                }
            }
            fields.add(field.toString());
            field.setLength(0);
            if (c == delimiter) {
                continue;
            }
            if (c == '\r') {
                if (peek() == '\n') {
                    read();
                }
                line++;
            } else if (c == '\n') {
                line++;
            }
            return new Record(start, fields);
        }
    }

    /** Reads a quoted field after its opening quote, up to and including its closing quote. */
    private int readQuoted(StringBuilder field, long start, int recordChars)
            throws IOException, MalformedCsvException {
        while (true) {
            int c = read();
            if (c == EOF) {
                throw new MalformedCsvException(start, "a quoted field starting on line " + start
                        + " is never closed (unterminated quote at the end of the file)", false);
            }
            if (c == '"') {
                if (peek() != '"') {
                    return recordChars;
                }
                read();
            } else if (c == '\r') {
                if (peek() == '\n') {
                    field.append('\r');
                    c = read();
                }
                line++;
            } else if (c == '\n') {
                line++;
            }
            field.append((char) c);
            recordChars = count(recordChars, start);
        }
    }

    private int count(int recordChars, long start) throws MalformedCsvException {
        if (recordChars + 1 > maxRecordChars) {
            throw new MalformedCsvException(start, "the record starting on line " + start
                    + " is longer than " + maxRecordChars + " characters (an unclosed quote?);"
                    + " the rest of the file was not read", false);
        }
        return recordChars + 1;
    }

    /** After a quoting error: drop the rest of the physical line so the next record starts cleanly. */
    private void skipRestOfLine(int c) throws IOException {
        while (c != '\r' && c != '\n' && c != EOF) {
            c = read();
        }
        if (c == '\r') {
            if (peek() == '\n') {
                read();
            }
            line++;
        } else if (c == '\n') {
            line++;
        }
    }

    private void consumeLineBreak() throws IOException {
        int c = read();
        if (c == '\r' && peek() == '\n') {
            read();
        }
        line++;
    }

    private int peek() throws IOException {
        if (pos == lim && !fill()) {
            return EOF;
        }
        return buf[pos];
    }

    private int read() throws IOException {
        if (pos == lim && !fill()) {
            return EOF;
        }
        char c = buf[pos++];
        if (c == '\0') {
            // a NUL never occurs in text; it marks a binary file or UTF-16 read as UTF-8
            throw new UnreadableBatchException("not text: a NUL byte on line " + line);
        }
        return c;
    }

    private boolean fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
            return false;
        }
        pos = 0;
        lim = n;
        return true;
    }
}
