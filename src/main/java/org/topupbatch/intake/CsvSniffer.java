package org.topupbatch.intake;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What kind of text a batch file is, before any record is parsed: not a spreadsheet or other
 * binary, valid UTF-8 (checked on the head, so that the line of a bad byte can be named), a
 * byte-order mark skipped, and {@code ,} or {@code ;} as the delimiter, from the header line.
 */
final class CsvSniffer {

    static final int MAX_HEADER_CHARS = 64 * 1024;

    /** The start of the file checked before it is decoded: more than the decoder reads ahead of the header. */
    private static final int HEAD_BYTES = 256 * 1024;

    /** An xlsx file is a zip archive; an old xls file an OLE compound document. */
    private static final byte[][] SPREADSHEET_SIGNATURES = {
            {'P', 'K', 3, 4},
            {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1},
    };

    /** The decoded text, standing at the header line's first character, and its delimiter. */
    record Sniffed(BufferedReader text, char delimiter) {
    }

    private CsvSniffer() {
    }

    /** Takes ownership of {@code in}: closes it when the file is refused. */
    static Sniffed sniff(InputStream in) throws IOException {
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
        BufferedReader text = new BufferedReader(new InputStreamReader(bytes, decoder), 64 * 1024);
        try {
            skipByteOrderMark(text);
            return new Sniffed(text, sniffDelimiter(text));
        } catch (CharacterCodingException e) {
            text.close();
            // the decoder reads ahead of the header: the bad bytes lie beyond the head already checked
            throw new UnreadableBatchException("not text: the file is not valid UTF-8 (near line "
                    + (headLines + 1) + ")", e);
        } catch (IOException | RuntimeException e) {
            text.close();
            throw e;
        }
    }

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
}
