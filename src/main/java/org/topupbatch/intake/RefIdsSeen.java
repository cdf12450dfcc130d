package org.topupbatch.intake;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.codec.digest.MurmurHash3;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The ref_ids {@code plan} has met in its file, each with the line of its first row (negative
 * when that row was rejected), so that a repeat is told as intake would tell it.
 *
 * <p>Kept as 64-bit fingerprints: in memory (an open-addressing table, 12 bytes a slot) up to
 * {@link #IN_MEMORY} ref_ids, and beyond that in an H2 MVStore on a scratch file, so that memory
 * stays flat for a file of any size. Two ref_ids with one fingerprint would be taken for a repeat:
 * with 64 bits the chance is about n²/2⁶⁵, some 3 in 100 million for a million-row file. Plan only
 * previews; intake asks the journal, which compares the ref_ids themselves.
 */
final class RefIdsSeen implements AutoCloseable {

    /** Ref_ids kept in memory before the table moves to the scratch file (48 MB of table at most). */
    static final int IN_MEMORY = 1 << 21;

    private final int inMemory;
    private long[] fingerprints;
    private long[] lines;
    private int size;
    private Path scratch;
    private MVStore store;
    private MVMap<Long, Long> onDisk;

    RefIdsSeen() {
        this(IN_MEMORY);
    }

    /** @param inMemory how many ref_ids the in-memory table holds before it moves to disk */
    RefIdsSeen(int inMemory) {
        this.inMemory = inMemory;
        this.fingerprints = new long[1 << 12];
        this.lines = new long[1 << 12];
    }

    /** The line of the first row with this ref_id (negative: that row was rejected), or null. */
    Long firstLine(String refId) {
        long fp = fingerprint(refId);
        if (onDisk != null) {
            return onDisk.get(fp);
        }
        int slot = slot(fp, fingerprints.length);
        while (fingerprints[slot] != 0) {
            if (fingerprints[slot] == fp) {
                return lines[slot];
            }
            slot = (slot + 1) & (fingerprints.length - 1);
        }
        return null;
    }

    /** Remembers the first row of a ref_id; a later row with the same ref_id changes nothing. */
    void remember(String refId, long line) {
        long fp = fingerprint(refId);
        if (onDisk != null) {
            onDisk.putIfAbsent(fp, line);
            return;
        }
        if (put(fingerprints, lines, fp, line)) {
            size++;
            if (size > inMemory) {
                moveToDisk();
            } else if (size * 2 > fingerprints.length) {
                grow();
            }
        }
    }

    private static boolean put(long[] fps, long[] lns, long fp, long line) {
        int slot = slot(fp, fps.length);
        while (fps[slot] != 0) {
            if (fps[slot] == fp) {
                return false;
            }
            slot = (slot + 1) & (fps.length - 1);
        }
        fps[slot] = fp;
        lns[slot] = line;
        return true;
    }

    private void grow() {
        long[] fps = new long[fingerprints.length * 2];
        long[] lns = new long[fps.length];
        for (int i = 0; i < fingerprints.length; i++) {
            if (fingerprints[i] != 0) {
                put(fps, lns, fingerprints[i], lines[i]);
            }
        }
        fingerprints = fps;
        lines = lns;
    }

    private void moveToDisk() {
        try {
            scratch = Files.createTempFile("topup-plan-", ".mv.db");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch file for plan", e);
        }
        store = new MVStore.Builder().fileName(scratch.toString()).cacheSize(8).autoCommitBufferSize(1024).open();
        onDisk = store.openMap("ref_ids");
        for (int i = 0; i < fingerprints.length; i++) {
            if (fingerprints[i] != 0) {
                onDisk.put(fingerprints[i], lines[i]);
            }
        }
        fingerprints = null;
        lines = null;
    }

    /** 64 bits of MurmurHash3 (x64, 128-bit) over the UTF-8 bytes, never 0 (0 marks a free slot). */
    static long fingerprint(String refId) {
        long h = MurmurHash3.hash128x64(refId.getBytes(StandardCharsets.UTF_8))[0];
        return h == 0 ? 1 : h;
    }

    /** The fingerprint's bits are already well mixed: its low bits pick the slot. */
    private static int slot(long fp, int length) {
        return (int) fp & (length - 1);
    }

    @Override
    public void close() {
        if (store != null) {
            store.closeImmediately();
            try {
                Files.deleteIfExists(scratch);
            } catch (IOException ignored) {
                // a scratch file in the temp folder; the OS cleans it
            }
        }
    }
}
