package org.topupbatch.batch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/**
 * The {@link BatchWriter} of {@code plan}: records nothing in the journal. It remembers the ref_ids
 * of the file being planned (a repeat is rejected as intake would) in an H2 MVStore on a scratch file,
 * so memory stays flat for a file of any size, and asks {@code orderedEarlier} about ref_ids an earlier
 * batch ordered (the journal, read only).
 */
public final class PlanWriter implements BatchWriter {

    private final Predicate<String> orderedEarlier;
    private final Path scratch;
    private final MVStore store;
    /** ref_id -> the line of its first row; negative when that row was rejected. */
    private final MVMap<String, Long> lines;
    private boolean allAcceptedRejected;

    public PlanWriter(Predicate<String> orderedEarlier) {
        this.orderedEarlier = orderedEarlier;
        try {
            this.scratch = Files.createTempFile("topup-plan-", ".mv.db");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch file for plan", e);
        }
        this.store = new MVStore.Builder().fileName(scratch.toString()).cacheSize(8).autoCommitBufferSize(1024).open();
        this.lines = store.openMap("ref_ids");
    }

    @Override
    public boolean refIdTaken(String refId) {
        Long line = lines.get(refId);
        return (line != null && line > 0) || orderedEarlier.test(refId);
    }

    @Override
    public Long lineInThisBatch(String refId) {
        Long line = lines.get(refId);
        return line == null ? null : Math.abs(line);
    }

    @Override
    public void add(NewRow row) {
        if (row.refId() != null && !row.refId().isEmpty()) {
            lines.putIfAbsent(row.refId(), row.state() == RowState.REJECTED ? -row.line() : row.line());
        }
    }

    @Override
    public void rejectAllAccepted(String message) {
        allAcceptedRejected = true;
    }

    /** True when the all-or-nothing policy turned every accepted row down. */
    public boolean allAcceptedRejected() {
        return allAcceptedRejected;
    }

    /** Nothing to commit: a plan orders nothing and records nothing. */
    @Override
    public long commit() {
        return 0;
    }

    @Override
    public void close() {
        store.closeImmediately();
        try {
            Files.deleteIfExists(scratch);
        } catch (IOException ignored) {
            // a scratch file in the temp folder; the OS cleans it
        }
    }
}
