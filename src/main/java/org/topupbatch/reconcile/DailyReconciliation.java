package org.topupbatch.reconcile;

/** What routes/reconcile.yaml runs every day: yesterday's reconciliation, a failure told in the log. */
public interface DailyReconciliation {

    void daily();
}
