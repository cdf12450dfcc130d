package org.topupbatch.reconcile;

import java.util.List;
import java.util.Set;

/**
 * A reconciliation's outcome: its exceptions, its figures, and the batches with an order whose final
 * status it corrected (their reports are written again).
 */
public record Reconciliation(List<ReconcileLine> lines, ReconcileSummary summary, Set<Long> batchesChanged) {
}
