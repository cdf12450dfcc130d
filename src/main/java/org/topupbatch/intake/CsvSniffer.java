package org.topupbatch.intake;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.topupbatch.journal.BatchEncoding;

/**
 * What kind of text a batch file is, before any record is parsed: not a spreadsheet or other
 * binary; its encoding (docs/batch-files-and-reports.md#input-file); blank lines and empty rows before the header
 * skipped; and {@code ,}, {@code ;} or tab as the delimiter, from the header line.
 *
 * <p>The encoding, when {@code topup.input-charset} is {@code auto}: a byte-order mark decides
 * (UTF-8, UTF-16LE, UTF-16BE); without one, a file that starts with a letter and a NUL is UTF-16
 * without mark (no CSV starts with a NUL); otherwise UTF-8 when every byte of the file is valid
 * UTF-8, and Windows-1252 when not (what Excel's "CSV (Comma delimited)" writes on Windows).
 * Valid UTF-8 is almost never Windows-1252 text by accident, so the order is safe. A set charset
 * replaces the guess, but a byte-order mark still wins: it is certain.
 */
final class CsvSniffer {

    static final int MAX_HEADER_CHARS = 64 * 1024;

    /** The start of the file checked before it is decoded: more than the decoder reads ahead of the header. */
    private static final int HEAD_BYTES = 256 * 1024;

    static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    /** An xlsx file is a zip archive; an old xls file an OLE compound document. */
    private static final byte[][] SPREADSHEET_SIGNATURES = {
            {'P', 'K', 3, 4},
            {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1},
    };

    /**
     * The decoded text, standing at the header line's first character; its delimiter and encoding;
     * the physical lines skipped before the header (blank ones), so that line numbers stay true.
     */
    record Sniffed(BufferedReader text, char delimiter, BatchEncoding encoding, long linesBeforeHeader) {
    }

    private CsvSniffer() {
    }

    /**
     * Takes ownership of {@code in}: closes it when the file is refused. {@code configured} is the
     * charset set by {@code topup.input-charset}, null for auto. {@code wholeFile}, when the input is
     * a file, lets auto check every byte for UTF-8 (a stream is judged by its head alone).
     */
    static Sniffed sniff(InputStream in, Charset configured, Path wholeFile) throws IOException {
        BufferedInputStream bytes = new BufferedInputStream(in, HEAD_BYTES);
        BatchEncoding encoding;
        try {
            encoding = encodingOf(bytes, configured, wholeFile);
        } catch (IOException | RuntimeException e) {
            bytes.close();
            throw e;
        }
        // REPORT, not the default REPLACE: bytes that are not text in the encoding must be refused, not garbled
        CharsetDecoder decoder = encoding.charset().newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        BufferedReader text = new BufferedReader(new InputStreamReader(bytes, decoder), 64 * 1024);
        try {
            if (encoding.byteOrderMark()) {
                text.read(); // the mark, decoded to U+FEFF
            }
            long skipped = skipBlankLines(text);
            return new Sniffed(text, sniffDelimiter(text), encoding, skipped);
        } catch (CharacterCodingException e) {
            text.close();
            throw new UnreadableBatchException(notText(encoding.charset(), "near the header"), e);
        } catch (IOException | RuntimeException e) {
            text.close();
            throw e;
        }
    }

    /** "not text: the file is not valid UTF-8 (near line 7)" and the like, for any charset. */
    static String notText(Charset charset, String where) {
        if (charset.equals(WINDOWS_1252)) {
            return "not text: the file is neither UTF-8 nor Windows-1252 (" + where + ")";
        }
        return "not text: the file is not valid " + charset.name() + " (" + where + ")";
    }

    /**
     * Looks at the file's head before the decoder reads ahead into it: a workbook renamed to .csv
     * is the commonest "CSV" that is no text at all, so it is named with how to export it. Leaves
     * the stream at its start.
     */
    private static BatchEncoding encodingOf(BufferedInputStream in, Charset configured, Path wholeFile) throws IOException {
        byte[] head = head(in);
        BatchEncoding encoding = guess(head, configured, wholeFile);
        // the decoder reads far ahead of the header: checked here, a bad byte in the head is named with its line
        long badLine = firstUndecodableLine(head, encoding.charset());
        if (badLine > 0) {
            throw new UnreadableBatchException(notText(encoding.charset(), "near line " + badLine));
        }
        return encoding;
    }

    private static byte[] head(BufferedInputStream in) throws IOException {
        in.mark(HEAD_BYTES);
        byte[] head = in.readNBytes(HEAD_BYTES);
        in.reset();
        return head;
    }

    private static BatchEncoding guess(byte[] head, Charset configured, Path wholeFile) throws IOException {
        for (byte[] signature : SPREADSHEET_SIGNATURES) {
            if (startsWith(head, signature)) {
                throw new UnreadableBatchException("not text: this looks like a spreadsheet file (xlsx/xls), not CSV:"
                        + " save it as \"CSV UTF-8\" and drop it again");
            }
        }
        BatchEncoding marked = byteOrderMark(head);
        if (marked != null) {
            return marked;
        }
        if (configured != null) {
            if (configured.equals(StandardCharsets.UTF_8)) {
                long badLine = firstInvalidUtf8Line(head, wholeFile);
                if (badLine > 0) {
                    throw new UnreadableBatchException(notText(StandardCharsets.UTF_8, "near line " + badLine)
                            + "; topup.input-charset is UTF-8");
                }
            }
            return new BatchEncoding(configured, false);
        }
        if (head.length >= 4 && head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0) {
            return new BatchEncoding(StandardCharsets.UTF_16LE, false);
        }
        if (head.length >= 4 && head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0) {
            return new BatchEncoding(StandardCharsets.UTF_16BE, false);
        }
        return firstInvalidUtf8Line(head, wholeFile) > 0 ? new BatchEncoding(WINDOWS_1252, false) : BatchEncoding.UTF_8;
    }

    private static BatchEncoding byteOrderMark(byte[] head) {
        if (startsWith(head, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF})) {
            return new BatchEncoding(StandardCharsets.UTF_8, true);
        }
        if (startsWith(head, new byte[] {(byte) 0xFF, (byte) 0xFE})) {
            return new BatchEncoding(StandardCharsets.UTF_16LE, true);
        }
        if (startsWith(head, new byte[] {(byte) 0xFE, (byte) 0xFF})) {
            return new BatchEncoding(StandardCharsets.UTF_16BE, true);
        }
        return null;
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /**
     * The line of the first byte that is not UTF-8, or 0 when there is none: in the head, and then
     * in the rest of {@code wholeFile} when given (one quick pass, so that one accented name on the
     * last line of a long file still makes it Windows-1252).
     */
    private static long firstInvalidUtf8Line(byte[] head, Path wholeFile) throws IOException {
        if (wholeFile == null || head.length < HEAD_BYTES) {
            return firstUndecodableLine(head, StandardCharsets.UTF_8);
        }
        try (InputStream in = Files.newInputStream(wholeFile)) {
            CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
            CharBuffer chars = CharBuffer.allocate(64 * 1024);
            ByteBuffer bytes = ByteBuffer.allocate(64 * 1024);
            long lines = 0;
            byte previous = 0;
            while (true) {
                int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
                boolean end = n < 0;
                if (n > 0) {
                    bytes.position(bytes.position() + n);
                }
                bytes.flip();
                int from = bytes.position();
                CoderResult result = decoder.decode(bytes, chars, end);
                chars.clear();
                if (result.isError()) {
                    return lines + lineBreaks(bytes.array(), from, bytes.position(), previous) + 1;
                }
                lines += lineBreaks(bytes.array(), from, bytes.position(), previous);
                if (bytes.position() > from) {
                    previous = bytes.get(bytes.position() - 1);
                }
                bytes.compact();
                if (end) {
                    return 0;
                }
            }
        }
    }

    /**
     * The line of the head's first byte that is not text in {@code charset}, or 0 when there is none
     * (counted on the decoded text, so that it holds for UTF-16 too).
     */
    private static long firstUndecodableLine(byte[] head, Charset charset) {
        ByteBuffer bytes = ByteBuffer.wrap(head);
        CharBuffer chars = CharBuffer.allocate(4096);
        CharsetDecoder decoder = charset.newDecoder();
        long lines = 0;
        char previous = 0;
        while (true) {
            // the end of input only when the head is the whole file: a character cut off at the end of the head is no error
            CoderResult result = decoder.decode(bytes, chars, head.length < HEAD_BYTES);
            chars.flip();
            while (chars.hasRemaining()) {
                char c = chars.get();
                if (c == '\r' || (c == '\n' && previous != '\r')) {
                    lines++;
                }
                previous = c;
            }
            chars.clear();
            if (result.isError()) {
                return lines + 1;
            }
            if (result.isUnderflow()) {
                return 0;
            }
        }
    }

    /** LF, CRLF and a lone CR each end a line; {@code before} is the byte before {@code from}. */
    private static long lineBreaks(byte[] bytes, int from, int to, byte before) {
        long breaks = 0;
        byte previous = before;
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\r' || (bytes[i] == '\n' && previous != '\r')) {
                breaks++;
            }
            previous = bytes[i];
        }
        return breaks;
    }

    /**
     * Skips lines of blanks, delimiters and quotes only before the header (an export's empty first
     * rows, of either delimiter), however many; returns how many.
     */
    static long skipBlankLines(BufferedReader in) throws IOException {
        long skipped = 0;
        while (true) {
            in.mark(MAX_HEADER_CHARS + 2);
            int read = 0;
            int c;
            while ((c = in.read()) != -1 && c != '\r' && c != '\n') {
                read++;
                if (!isBlankRowChar(c)) {
                    if (read > MAX_HEADER_CHARS) {
                        throw new UnreadableBatchException("the header line is longer than " + MAX_HEADER_CHARS
                                + " characters");
                    }
                    in.reset(); // the header starts this line
                    return skipped;
                }
            }
            if (c == -1) {
                if (read <= MAX_HEADER_CHARS) {
                    in.reset(); // only blanks up to the end: the header check says the file is empty
                }
                return skipped;
            }
            skipped++;
            if (c == '\r') {
                in.mark(1);
                if (in.read() != '\n') {
                    in.reset();
                }
            }
        }
    }

    private static boolean isBlankRowChar(int c) {
        return c == ',' || c == ';' || c == '\t' || c == '"' || c == ' ' || c == '\u00A0' || c == '\uFEFF';
    }

    /**
     * Counts {@code ,}, {@code ;} and tabs outside quotes on the header line, then rewinds. The most
     * frequent wins; a tie goes to {@code ,}, then {@code ;} (none at all: {@code ,}).
     */
    static char sniffDelimiter(BufferedReader in) throws IOException {
        in.mark(MAX_HEADER_CHARS + 1);
        int semicolons = 0;
        int commas = 0;
        int tabs = 0;
        boolean quoted = false;
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
                break;
            } else if (!quoted && c == ';') {
                semicolons++;
            } else if (!quoted && c == ',') {
                commas++;
            } else if (!quoted && c == '\t') {
                tabs++;
            }
        }
        in.reset();
        if (tabs > commas && tabs > semicolons) {
            return '\t';
        }
        return semicolons > commas ? ';' : ',';
    }
}
