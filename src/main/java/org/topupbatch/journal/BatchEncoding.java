package org.topupbatch.journal;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;

/**
 * The text encoding a batch file came in, and whether it began with a byte-order mark. Kept with
 * the batch (column {@code batch.encoding}) so that its report goes back in the same encoding: an
 * ERP that wrote UTF-16 or Windows-1252 reads its answer the way it wrote its question.
 */
public record BatchEncoding(Charset charset, boolean byteOrderMark) {

    /** What batches recorded before the encoding was kept were read as. */
    public static final BatchEncoding UTF_8 = new BatchEncoding(StandardCharsets.UTF_8, false);

    /** As stored in the journal: {@code UTF-8}, {@code UTF-16LE+BOM}, {@code windows-1252}. */
    public String stored() {
        return charset.name() + (byteOrderMark ? "+BOM" : "");
    }

    /** The stored form back; null (a batch from before) is UTF-8 without mark. */
    public static BatchEncoding parse(String stored) {
        if (stored == null || stored.isBlank()) {
            return UTF_8;
        }
        boolean mark = stored.endsWith("+BOM");
        String name = mark ? stored.substring(0, stored.length() - 4) : stored;
        try {
            return new BatchEncoding(Charset.forName(name), mark);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return UTF_8; // a journal written by a JVM with more charsets: UTF-8 is the safe fallback
        }
    }

    /** As shown to people: {@code UTF-8}, {@code UTF-16LE with byte-order mark}. */
    public String shown() {
        return charset.name() + (byteOrderMark ? " with byte-order mark" : "");
    }

    /** The mark's bytes for this charset (empty without a mark, or for a charset that has none). */
    public byte[] byteOrderMarkBytes() {
        if (!byteOrderMark) {
            return new byte[0];
        }
        return switch (charset.name()) {
            case "UTF-8" -> new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
            case "UTF-16LE" -> new byte[] {(byte) 0xFF, (byte) 0xFE};
            case "UTF-16BE" -> new byte[] {(byte) 0xFE, (byte) 0xFF};
            default -> new byte[0];
        };
    }
}
