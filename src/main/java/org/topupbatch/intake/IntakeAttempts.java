package org.topupbatch.intake;

import org.topupbatch.provider.PriceListUnavailableException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.topupbatch.journal.JournalException;
import org.topupbatch.provider.ProviderException;

/**
 * Failed intakes of inbox files (docs/batch-files-and-reports.md#a-file-whose-intake-keeps-failing), so that no file can
 * hold up the inbox: a failure that is the file's counts as an attempt, and after
 * {@link #MAX_ATTEMPTS} the file is set aside into the error folder beside the archive, with a note.
 *
 * <p>Which failures are the file's: every one except an outage of the world intake depends on,
 * which no file causes and which would set aside every file it met (see {@link #outage}); those are
 * tried again on the next poll without counting, as before.
 *
 * <p>Attempts are counted in memory, per file name and content hash: a restart gives a file
 * {@link #MAX_ATTEMPTS} new attempts, and a file whose content changed starts again at 0. A failure
 * that kills the process instead of failing the intake is therefore not counted.
 */
final class IntakeAttempts {

    /** Failed intakes of one file before it is set aside. */
    static final int MAX_ATTEMPTS = 3;

    /** A one-line cause is cut to this many characters. */
    private static final int CAUSE_LENGTH = 300;

    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    private final AtomicInteger setAside = new AtomicInteger();

    /**
     * True when this failure is an outage of what intake needs, not the file's doing: the journal
     * ({@link JournalException}, unless the database refused the file's own values: SQLState class
     * 22, data exception, or 23, integrity constraint violation), the provider's balance call
     * ({@link ProviderException}: unreachable, timeouts, 5xx, refused credentials, rate limits) or
     * its price list ({@link PriceListUnavailableException}). Anywhere in the cause chain.
     */
    static boolean outage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ProviderException || t instanceof PriceListUnavailableException) {
                return true;
            }
            if (t instanceof JournalException) {
                return !refusedValues(t);
            }
        }
        return false;
    }

    private static boolean refusedValues(Throwable journalFailure) {
        for (Throwable t = journalFailure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("22") || sql.getSQLState().startsWith("23"))) {
                return true;
            }
        }
        return false;
    }

    /** Counts a failed intake of this file; returns which attempt it was (1, 2, ...). */
    int failed(String name, String hash) {
        return failures.merge(key(name, hash), 1, Integer::sum);
    }

    /** The file was taken (or set aside): a file of the same name and content dropped again starts at 0. */
    void forget(String name, String hash) {
        failures.remove(key(name, hash));
    }

    void countSetAside() {
        setAside.incrementAndGet();
    }

    /** Files set aside since this process started. */
    int setAside() {
        return setAside.get();
    }

    private static String key(String name, String hash) {
        return name + "\u0000" + hash;
    }

    /** The failure in one line, without a stack trace: its type and message, and its cause's. */
    static String cause(Throwable failure) {
        String line = describe(failure);
        Throwable cause = failure.getCause();
        String message = failure.getMessage();
        boolean causeInMessage = message != null && (message.equals(cause == null ? null : cause.toString())
                || cause != null && cause.getMessage() != null && message.contains(": " + cause.getMessage()));
        if (cause != null && cause != failure && !causeInMessage) {
            line += " (" + describe(cause) + ")";
        }
        line = line.replaceAll("[\\p{Cntrl}]+", " ").strip();
        return line.length() <= CAUSE_LENGTH ? line : line.substring(0, CAUSE_LENGTH - 3) + "...";
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        if (message != null) {
            int end = message.indexOf('\n');
            message = (end < 0 ? message : message.substring(0, end)).strip();
        }
        return t.getClass().getSimpleName() + (message == null || message.isEmpty() ? "" : ": " + message);
    }

    /** The note beside a file set aside as {@code errorFile}: when, how often, why, and what to do. */
    static void writeNote(Path errorFile, String name, Instant when, String cause) throws IOException {
        String setAsideAs = errorFile.getFileName().toString();
        String summary = BatchIntake.baseName(name) + ".summary.json";
        String note = name + " was set aside by topup-batch at " + when.truncatedTo(ChronoUnit.SECONDS) + ": taking it in failed " + MAX_ATTEMPTS
                + " times in a row.\n"
                + "\n"
                + "File:  " + setAsideAs + " (dropped into the inbox as " + name + ")\n"
                + "Cause: " + cause + "\n"
                + "\n"
                + "None of its rows was recorded or ordered; its summary (" + summary + " in the reports folder)\n"
                + "names the cause under \"error\". The other files of the inbox were taken as usual.\n"
                + "\n"
                + "What to do: the service's log around that time has one WARN line per attempt, and\n"
                + "Camel's ERROR entries of the first attempts hold the full error. Remove the cause\n"
                + "(e.g. an OutOfMemoryError: give the JVM more memory with -Xmx, or split the file),\n"
                + "then move " + setAsideAs + " back into the inbox as " + name + ":\n"
                + "it is taken as a new batch. Nothing else needs to be undone.\n";
        Files.createDirectories(errorFile.getParent());
        Files.writeString(errorFile.resolveSibling(setAsideAs + ".txt"), note, StandardCharsets.UTF_8);
    }
}
