package org.topupbatch.intake;

import java.util.Collection;
import java.util.Map;
import java.util.function.BiFunction;
import org.topupbatch.journal.EarlierOrder;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/**
 * The {@link BatchWriter} of {@code plan}: records nothing in the journal. It remembers the ref_ids
 * of the file being planned ({@link RefIdsSeen}: a repeat is rejected as intake would, in flat
 * memory for a file of any size), and asks {@code ordersAmong} which ref_ids an earlier batch
 * ordered (the journal, read only), a chunk of rows at a time. Repeats likewise: the repeat keys of
 * this file's accepted rows as fingerprints with their first line (a second {@link RefIdsSeen}, so
 * memory stays flat; a fingerprint collision could only take a row for a repeat in a plan, never in
 * intake), and {@code repeatsAmong} for earlier batches' orders. The ref_id of each key's first row
 * (and what it waits for), which a waiting row's message names, is kept for the first
 * {@link #REF_IDS_KEPT} keys; past that a plan names the line only.
 */
public final class PlanWriter implements BatchWriter {

    private final Function<Collection<String>, Set<String>> ordersAmong;
    private final RefIdsSeen seen = new RefIdsSeen();
    private final RefIdsSeen keysSeen = new RefIdsSeen();
    /** Repeat keys whose first row's ref_id a plan keeps (some 20 MB at most). */
    static final int REF_IDS_KEPT = 100_000;
    /** Repeat key -> {ref_id, the ref_id it waits for or null} of its first row, for the first keys. */
    private final Map<String, String[]> firstRows = new java.util.HashMap<>();
    private final BiFunction<Collection<String>, Long, Map<String, EarlierOrder>> repeatsAmong;
    private Set<String> expectedKeys = Set.of();
    private Map<String, EarlierOrder> repeatedEarlier = Map.of();
    /** The ref_ids last announced by {@link #expect}, and which of them earlier batches ordered. */
    private Set<String> expected = Set.of();
    private Set<String> orderedEarlier = Set.of();
    private boolean allAcceptedRejected;

    public PlanWriter(Function<Collection<String>, Set<String>> ordersAmong) {
        this(ordersAmong, (keys, since) -> Map.of());
    }

    public PlanWriter(Function<Collection<String>, Set<String>> ordersAmong,
                      BiFunction<Collection<String>, Long, Map<String, EarlierOrder>> repeatsAmong) {
        this.ordersAmong = ordersAmong;
        this.repeatsAmong = repeatsAmong;
    }

    @Override
    public void expectRepeats(Collection<String> repeatKeys, long windowStart) {
        expectedKeys = new HashSet<>(repeatKeys);
        repeatedEarlier = repeatsAmong.apply(expectedKeys, windowStart);
    }

    @Override
    public EarlierOrder earlierOrder(String repeatKey, long windowStart) {
        Long line = keysSeen.firstLine(repeatKey);
        if (line != null) {
            String[] first = firstRows.getOrDefault(repeatKey, new String[2]);
            return EarlierOrder.inThisFile(first[0], line, first[1]);
        }
        return expectedKeys.contains(repeatKey) ? repeatedEarlier.get(repeatKey)
                : repeatsAmong.apply(List.of(repeatKey), windowStart).get(repeatKey);
    }

    @Override
    public void expect(Collection<String> refIds) {
        expected = new HashSet<>(refIds);
        orderedEarlier = ordersAmong.apply(expected);
    }

    @Override
    public boolean refIdTaken(String refId) {
        Long line = seen.firstLine(refId);
        return (line != null && line > 0) || orderedEarlier(refId);
    }

    private boolean orderedEarlier(String refId) {
        return expected.contains(refId) ? orderedEarlier.contains(refId) : !ordersAmong.apply(List.of(refId)).isEmpty();
    }

    @Override
    public Long lineInThisBatch(String refId) {
        Long line = seen.firstLine(refId);
        return line == null ? null : Math.abs(line);
    }

    @Override
    public void add(NewRow row) {
        if (row.refId() != null && !row.refId().isEmpty()) {
            seen.remember(row.refId(), row.state() == RowState.REJECTED ? -row.line() : row.line());
        }
        if (row.state() != RowState.REJECTED && row.repeatKey() != null && keysSeen.firstLine(row.repeatKey()) == null) {
            keysSeen.remember(row.repeatKey(), row.line());
            if (firstRows.size() < REF_IDS_KEPT) {
                firstRows.put(row.repeatKey(), new String[] {row.refId(), row.waitsFor()});
            }
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
        seen.close();
        keysSeen.close();
    }
}
