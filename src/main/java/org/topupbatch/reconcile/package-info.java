/**
 * Reconciliation with the provider (docs/reconcile.md#reconcile-with-the-provider): a business day's orders
 * at the provider against the journal's, every exception one line, and the balance's movement
 * explained by the orders the provider lists. With several accounts each account on its own, by its
 * order history or, for an account without one (Digiflazz), by a status check of each of the
 * journal's orders there. Used by the {@code reconcile} command and by the daily route of
 * routes/reconcile.yaml.
 */
package org.topupbatch.reconcile;
