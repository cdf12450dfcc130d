package org.topupbatch.journal;

/**
 * A batch as the dashboard shows it: the batch, how many of its rows stand in each state, and what
 * it has been charged so far (price over success and pending rows, as its report counts).
 */
public record BatchOverview(BatchRecord batch, BatchProgress progress, long charged) {
}
