package org.topupbatch.text;

/**
 * A value from outside (a file's field or header, a provider's message) made safe to print on one
 * line of a terminal or a log: a line break would let one value forge further lines (of the plan,
 * of the log), an escape sequence would drive the reader's terminal, and a value of 60,000
 * characters hides everything around it. Line breaks and tabs are written as {@code \n}, {@code \r},
 * {@code \t}, other control characters as {@code \u001B}; a value longer than the limit is cut
 * and its length said. Printable text, accents and all, stays as it is.
 */
public final class OneLine {

    /** The characters of a value shown before it is cut. */
    public static final int DEFAULT_LIMIT = 200;

    private OneLine() {
    }

    /** {@code value} escaped and cut to {@link #DEFAULT_LIMIT} characters; null shows as empty. */
    public static String of(String value) {
        return of(value, DEFAULT_LIMIT);
    }

    /** {@code value} escaped and cut to {@code limit} characters (before escaping). */
    public static String of(String value, int limit) {
        if (value == null) {
            return "";
        }
        int shown = Math.min(value.length(), limit);
        if (shown < value.length() && Character.isHighSurrogate(value.charAt(shown - 1))) {
            shown--; // never split a character in two
        }
        StringBuilder out = null;
        for (int i = 0; i < shown; i++) {
            char c = value.charAt(i);
            String escaped = escape(c);
            if (escaped != null && out == null) {
                out = new StringBuilder(shown + 16).append(value, 0, i);
            }
            if (out != null) {
                if (escaped != null) {
                    out.append(escaped);
                } else {
                    out.append(c);
                }
            }
        }
        String text = out == null ? value.substring(0, shown) : out.toString();
        if (shown < value.length()) {
            return text + "… (" + value.length() + " characters)";
        }
        return text;
    }

    private static String escape(char c) {
        switch (c) {
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            default:
                break;
        }
        // C0 and C1 controls, DEL, and the line and paragraph separators that some terminals break on
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == '\u2028' || c == '\u2029') {
            return String.format("\\u%04X", (int) c);
        }
        return null;
    }
}
