package org.topupbatch.intake;

/**
 * One record of a batch file breaks the CSV quoting rules, or is too long to be a record. Carries
 * where: the input's name (the file name; null when the input has none, e.g. a stream) and the
 * physical line the record starts on. The message is the reason alone, because the row it becomes
 * is already shown with its line and file ({@link #where()} names both for anything else).
 * {@code resumable} says whether reading goes on with the next line (false when the rest of the
 * file was swallowed by an unclosed quote, or the record is too long).
 */
public final class CsvParseException extends Exception {
    private final String input;
    private final long line;
    private final boolean resumable;

    CsvParseException(String input, long line, String reason, boolean resumable) {
        super(reason);
        this.input = input;
        this.line = line;
        this.resumable = resumable;
    }

    /** The file name, or null for an input without one. */
    public String input() {
        return input;
    }

    /** The physical line (1-based) the broken record starts on. */
    public long line() {
        return line;
    }

    public boolean resumable() {
        return resumable;
    }

    /** "orders.csv, line 7", or "line 7" for an input without a name. */
    public String where() {
        return (input == null ? "" : input + ", ") + "line " + line;
    }
}
