/**
 * Reconciliation with the provider (README, "Reconcile with the provider"): a business day's orders
 * at the provider against the journal's, every exception one line, and the balance's movement
 * explained by the orders the provider lists. Used by the {@code reconcile} command and by the
 * daily route of routes/reconcile.yaml.
 */
package org.topupbatch.reconcile;
