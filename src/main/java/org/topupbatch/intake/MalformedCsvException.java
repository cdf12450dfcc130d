package org.topupbatch.intake;

/**
 * One record breaks the CSV quoting rules. {@code line} is the physical line the record starts on;
 * {@code resumable} says whether reading goes on with the next line (false when the rest of the
 * file was swallowed by an unclosed quote, or the record is too long).
 */
final class MalformedCsvException extends Exception {
    final long line;
    final boolean resumable;

    MalformedCsvException(long line, String reason, boolean resumable) {
        super(reason);
        this.line = line;
        this.resumable = resumable;
    }
}
