package org.topupbatch.intake;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;

/**
 * The characters of a batch file as {@link CsvBatchReader} hands them to Commons CSV. Does no CSV
 * parsing; it only
 * <ul>
 * <li>hands out at most one physical line per {@code read} call, so that the parser never holds
 * text beyond the line it is on: after a malformed record a fresh parser can take over at the start
 * of the next line ({@link #skipRestOfLine()});</li>
 * <li>refuses NUL characters and invalid UTF-8 as {@link UnreadableBatchException}, naming the line;</li>
 * <li>bounds memory: the parser asks for more only when it has used up what it was given, so once
 * more than {@code maxRecordChars} characters were handed out since the last record ended
 * ({@link #recordEnded()}), the record being read is longer than that and {@code read} throws
 * {@link RecordTooLongException} instead of letting it grow.</li>
 * </ul>
 * CR, LF and CRLF each end one line.
 */
final class LineChunkReader extends Reader {

    /** The record being read is over the limit; the parser cannot go on after it. */
    static final class RecordTooLongException extends IOException {
        RecordTooLongException() {
            super("record too long");
        }
    }

    private final Reader in;
    private final java.nio.charset.Charset charset;
    private final int maxRecordChars;
    private final char[] buf = new char[8192];
    private final int maxChunk;
    private int pos;
    private int lim;
    private boolean atEnd;
    private long handedOut;
    private long handedOutAtRecordEnd;
    private long lineBreaksAtRecordEnd;
    private long lineBreaks;
    private boolean afterCr;
    private boolean atLineStart = true;
    /** Characters of the line break that ended the last chunk handed out (0, 1, or 2 for CRLF). */
    private int lastBreakChars;

    /**
     * {@code charset} names the encoding in "not text" messages; {@code linesBefore} are the lines
     * before the text's first character (skipped blank lines), so that line numbers are the file's.
     */
    LineChunkReader(Reader in, java.nio.charset.Charset charset, int maxRecordChars, long linesBefore) {
        this.in = in;
        this.charset = charset;
        this.lineBreaks = linesBefore;
        this.lineBreaksAtRecordEnd = linesBefore;
        this.maxRecordChars = maxRecordChars;
        // small limits (tests) need small chunks to be noticed before the input runs out
        this.maxChunk = Math.max(1, Math.min(buf.length, maxRecordChars));
    }

    /** Line breaks handed out so far. */
    long lineBreaks() {
        return lineBreaks;
    }

    /** Whether the end of the input was reached and reported to the reader. */
    boolean atEnd() {
        return atEnd;
    }

    /** The parser has just returned a record: the next one starts no earlier than here. */
    void recordEnded() {
        handedOutAtRecordEnd = handedOut;
        lineBreaksAtRecordEnd = lineBreaks;
    }

    /**
     * Characters handed out for the record just returned by the parser, its line end not counted:
     * the streaming check in {@link #read} notices an over-long record only once the parser asks
     * for more, so a record a little over the limit is caught here.
     */
    long recordChars() {
        return handedOut - handedOutAtRecordEnd - (atLineStart ? lastBreakChars : 0);
    }

    /** Whether the record being read has not yet crossed a line break (it lies on one physical line so far). */
    boolean recordOnOneLine() {
        return lineBreaks == lineBreaksAtRecordEnd;
    }

    /** Whether the last character handed out ended a line (false for a file whose last line has no line end). */
    boolean atLineStart() {
        return atLineStart;
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        // the parser has used up all but at most one (peeked) character of what it was given
        if (handedOut - 1 - handedOutAtRecordEnd > maxRecordChars) {
            throw new RecordTooLongException();
        }
        if (pos == lim && !fill()) {
            return -1;
        }
        int stop = pos + Math.min(len, Math.min(lim - pos, maxChunk));
        int end = pos;
        atLineStart = false;
        while (end < stop) {
            char c = buf[end++];
            if (c == '\0') {
                // a NUL never occurs in text; it marks a binary file or UTF-16 read as UTF-8
                throw new UnreadableBatchException("not text: a NUL byte on line " + (lineBreaks + 1));
            }
            if (c == '\n') {
                if (!afterCr) {
                    lineBreaks++;
                }
                afterCr = false;
                atLineStart = true;
                break;
            }
            if (c == '\r') {
                lineBreaks++;
                afterCr = true;
                atLineStart = true;
                if (end < stop && buf[end] == '\n') {
                    continue; // CRLF: hand out the LF with its CR
                }
                break;
            }
            afterCr = false;
        }
        int n = end - pos;
        lastBreakChars = !atLineStart ? 0 : (n >= 2 && buf[end - 2] == '\r' && buf[end - 1] == '\n') ? 2 : 1;
        System.arraycopy(buf, pos, cbuf, off, n);
        pos = end;
        handedOut += n;
        return n;
    }

    /**
     * Drops the rest of the current physical line (nothing when the last character handed out ended
     * a line), so that what comes next starts a line.
     */
    void skipRestOfLine() throws IOException {
        char[] scratch = new char[1024];
        while (!atLineStart) {
            recordEnded();
            if (read(scratch, 0, scratch.length) < 0) {
                return;
            }
        }
        if (afterCr && (pos < lim || fill()) && buf[pos] == '\n') {
            pos++; // the LF of a CRLF whose CR ended the last chunk
            handedOut++;
            afterCr = false;
        }
        recordEnded(); // the next record starts on the next line
    }

    private boolean fill() throws IOException {
        int n;
        try {
            n = in.read(buf, 0, buf.length);
        } catch (CharacterCodingException e) {
            throw new UnreadableBatchException(CsvSniffer.notText(charset, "near line " + (lineBreaks + 1)), e);
        }
        if (n <= 0) {
            atEnd = true;
            return false;
        }
        pos = 0;
        lim = n;
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
