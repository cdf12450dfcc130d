package org.topupbatch.reconcile;

import java.util.List;
import java.util.Set;

/** A reconciliation's outcome: its exceptions, its figures, and the batches whose reports must be written again. */
public record Reconciliation(List<ReconcileLine> lines, ReconcileSummary summary, Set<Long> batchesChanged) {
}
