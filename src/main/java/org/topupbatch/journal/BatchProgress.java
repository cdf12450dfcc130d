package org.topupbatch.journal;

import java.util.Map;

/** How many rows of a batch stand in each state. */
public record BatchProgress(long batchId, Map<RowState, Long> counts) {

    public long count(RowState state) {
        return counts.getOrDefault(state, 0L);
    }

    public long rows() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** True when no row can change any more without a new provider answer being needed. */
    public boolean allFinal() {
        return counts.entrySet().stream().allMatch(e -> e.getValue() == 0 || e.getKey().isFinal());
    }
}
