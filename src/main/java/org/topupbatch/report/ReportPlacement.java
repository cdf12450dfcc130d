package org.topupbatch.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.OptionalLong;
import org.topupbatch.journal.BatchRecord;

/**
 * Decides which file names a batch's report takes, so that no batch's report ever overwrites
 * another batch's (docs/batch-files-and-reports.md#report). {@code NAME.result.csv} and {@code NAME.summary.json} belong
 * to the latest batch of that name; the summary's {@code batch} field says which batch that is.
 * An earlier batch's pair is first renamed to
 * {@code NAME.batch-<id>-<started yyyyMMdd-HHmmss UTC>.result.csv / .summary.json}, and an earlier
 * batch written again later (pending orders settling) goes straight to those names.
 *
 * <p>Crash safety: the result file is renamed aside before the summary, because the summary is
 * what names the owner; a crash between the two leaves the summary in place and the next write
 * finishes the move. A pair whose owner cannot be told (no summary, an unreadable one, or one from
 * a version without {@code batch}) is kept as {@code NAME.earlier-<modified yyyyMMdd-HHmmss>[-n]...}:
 * never overwritten, at worst an extra copy.
 */
final class ReportPlacement {

    static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where one report's two files go. */
    record Target(Path result, Path summary) {
    }

    private ReportPlacement() {
    }

    /** Clears {@code NAME.*} of an earlier batch's report if needed and returns the names {@code batch} writes to. */
    static Target place(Path dir, String name, BatchRecord batch) throws IOException {
        Target latest = new Target(dir.resolve(name + ".result.csv"), dir.resolve(name + ".summary.json"));
        boolean resultThere = Files.exists(latest.result());
        boolean summaryThere = Files.exists(latest.summary());
        if (!resultThere && !summaryThere) {
            return latest;
        }
        OptionalLong owner = summaryThere ? ownerOf(latest.summary()) : OptionalLong.empty();
        if (owner.isPresent() && owner.getAsLong() == batch.id()) {
            return latest;
        }
        if (owner.isPresent() && owner.getAsLong() > batch.id()) {
            return keptFor(dir, name, batch.id(), batch.startedAt());
        }
        Target aside = owner.isPresent()
                ? keptFor(dir, name, owner.getAsLong(), startedAt(latest.summary()))
                : unknownOwner(dir, name, resultThere ? latest.result() : latest.summary());
        Path workbook = dir.resolve(name + ".result.xlsx");
        if (Files.exists(workbook)) {
            // an earlier batch's workbook goes aside with its pair, before the summary that names its owner
            rename(workbook, aside.result().resolveSibling(aside.result().getFileName().toString()
                    .replaceFirst("\\.result\\.csv$", ".result.xlsx")));
        }
        if (resultThere) {
            rename(latest.result(), aside.result());
        }
        if (summaryThere) {
            rename(latest.summary(), aside.summary());
        }
        return latest;
    }

    /** Where {@code batch}'s result file is now, if its report was written: the latest name, or its own. */
    static java.util.Optional<Path> resultOf(Path dir, String name, BatchRecord batch) {
        Target latest = new Target(dir.resolve(name + ".result.csv"), dir.resolve(name + ".summary.json"));
        if (Files.exists(latest.result()) && ownerOf(latest.summary()).orElse(-1) == batch.id()) {
            return java.util.Optional.of(latest.result());
        }
        Path kept = keptFor(dir, name, batch.id(), batch.startedAt()).result();
        return Files.exists(kept) ? java.util.Optional.of(kept) : java.util.Optional.empty();
    }

    static Target keptFor(Path dir, String name, long batchId, Instant startedAt) {
        String base = name + ".batch-" + batchId + (startedAt == null ? "" : "-" + STAMP.format(startedAt));
        return new Target(dir.resolve(base + ".result.csv"), dir.resolve(base + ".summary.json"));
    }

    private static Target unknownOwner(Path dir, String name, Path sample) throws IOException {
        String base = name + ".earlier-" + STAMP.format(Files.getLastModifiedTime(sample).toInstant());
        Target t = new Target(dir.resolve(base + ".result.csv"), dir.resolve(base + ".summary.json"));
        for (int n = 2; Files.exists(t.result()) || Files.exists(t.summary()); n++) {
            t = new Target(dir.resolve(base + "-" + n + ".result.csv"), dir.resolve(base + "-" + n + ".summary.json"));
        }
        return t;
    }

    private static OptionalLong ownerOf(Path summary) {
        JsonNode batch = read(summary).path("batch");
        return batch.canConvertToLong() && batch.isIntegralNumber() ? OptionalLong.of(batch.asLong()) : OptionalLong.empty();
    }

    private static Instant startedAt(Path summary) {
        try {
            JsonNode started = read(summary).path("started_at");
            return started.isTextual() ? Instant.parse(started.asText()) : null;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static JsonNode read(Path summary) {
        try {
            JsonNode tree = JSON.readTree(summary.toFile());
            return tree == null ? JSON.missingNode() : tree;
        } catch (IOException e) {
            return JSON.missingNode(); // someone else's or a damaged file: its owner is unknown
        }
    }

    private static void rename(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
