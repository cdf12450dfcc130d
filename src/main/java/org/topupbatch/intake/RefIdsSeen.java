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
 * <p>Kept as 64-bit fingerprints: in memory (an open-addressing table, 16 bytes a slot) up to
 * {@link #IN_MEMORY} ref_ids, and beyond that in an H2 MVStore on a scratch file, so that memory
 * stays flat for a file of any size. Two ref_ids with one fingerprint would be taken for a repeat:
 * with 64 bits the chance is about n²/2⁶⁵, some 3 in 100 million for a million-row file. Plan only
 * previews; intake asks the journal, which compares the ref_ids themselves.
 */
final class RefIdsSeen implements AutoCloseable {

    /** Ref_ids kept in memory before the table moves to the scratch file (64 MB of table at most). */
    static final int IN_MEMORY = 1 << 21;

    private final int inMemory;
    /**
     * The in-memory table: each slot two longs side by side, the fingerprint then its line, so that a
     * look-up and the line it finds cost one cache miss, not two (a million-row plan makes millions).
     */
    private long[] slots;
    private int size;
    private Path scratch;
    private MVStore store;
    private MVMap<Long, Long> onDisk;
    /** The last ref_id fingerprinted and its fingerprint: a row's ref_id is looked up, then remembered. */
    private String lastRefId;
    private long lastFingerprint;

    RefIdsSeen() {
        this(IN_MEMORY);
    }

    /** @param inMemory how many ref_ids the in-memory table holds before it moves to disk */
    RefIdsSeen(int inMemory) {
        this.inMemory = inMemory;
        this.slots = new long[2 << 12];
    }

    /** The line of the first row with this ref_id (negative: that row was rejected), or null. */
    Long firstLine(String refId) {
        long fp = fingerprintOf(refId);
        if (onDisk != null) {
            return onDisk.get(fp);
        }
        int slot = slot(fp, slots.length);
        while (slots[slot] != 0) {
            if (slots[slot] == fp) {
                return slots[slot + 1];
            }
            slot = (slot + 2) & (slots.length - 1);
        }
        return null;
    }

    /** Remembers the first row of a ref_id; a later row with the same ref_id changes nothing. */
    void remember(String refId, long line) {
        long fp = fingerprintOf(refId);
        if (onDisk != null) {
            onDisk.putIfAbsent(fp, line);
            return;
        }
        if (put(slots, fp, line)) {
            size++;
            if (size > inMemory) {
                moveToDisk();
            } else if (size * 4 > slots.length) {
                grow();
            }
        }
    }

    private static boolean put(long[] table, long fp, long line) {
        int slot = slot(fp, table.length);
        while (table[slot] != 0) {
            if (table[slot] == fp) {
                return false;
            }
            slot = (slot + 2) & (table.length - 1);
        }
        table[slot] = fp;
        table[slot + 1] = line;
        return true;
    }

    private void grow() {
        long[] table = new long[slots.length * 2];
        for (int i = 0; i < slots.length; i += 2) {
            if (slots[i] != 0) {
                put(table, slots[i], slots[i + 1]);
            }
        }
        slots = table;
    }

    private void moveToDisk() {
        try {
            scratch = Files.createTempFile("topup-plan-", ".mv.db");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch file for plan", e);
        }
        store = new MVStore.Builder().fileName(scratch.toString()).cacheSize(8).autoCommitBufferSize(1024).open();
        onDisk = store.openMap("ref_ids");
        for (int i = 0; i < slots.length; i += 2) {
            if (slots[i] != 0) {
                onDisk.put(slots[i], slots[i + 1]);
            }
        }
        slots = null;
    }

    /** {@link #fingerprint}, made once for a ref_id asked about several times in a row (a row's checks ask two or three times). */
    private long fingerprintOf(String refId) {
        if (!refId.equals(lastRefId)) {
            lastFingerprint = fingerprint(refId);
            lastRefId = refId;
        }
        return lastFingerprint;
    }

    /** 64 bits of MurmurHash3 (x64, 128-bit) over the UTF-8 bytes, never 0 (0 marks a free slot). */
    static long fingerprint(String refId) {
        long h = MurmurHash3.hash128x64(refId.getBytes(StandardCharsets.UTF_8))[0];
        return h == 0 ? 1 : h;
    }

    /** The fingerprint's bits are already well mixed: its low bits pick the slot (an even index). */
    private static int slot(long fp, int length) {
        return ((int) fp << 1) & (length - 1);
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
