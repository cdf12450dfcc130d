-- Several accounts (README "Reconcile with the provider"): each account's part of a reconciliation in
-- one line, so that status shows which accounts were reconciled and which could not be asked.
-- JSON object, account to line; NULL for a single account's reconciliation.
ALTER TABLE reconciliation ADD COLUMN accounts VARCHAR(8000);
