-- The repeat guard judges on outcomes (README "Rejected rows", docs/money-guards.md): a row that
-- repeats an order still in flight is recorded in state WAITING, and waits_for names that order's
-- ref_id (its order_ref_id). The submit path takes ACCEPTED rows only, so a WAITING row is never
-- sent; the journal's guarded updates (journal/JdbcRepeatWaits) turn it ACCEPTED once the earlier
-- order failed, or REJECTED once it succeeded. NULL for every other row. The index serves "who waits
-- for this order" when an order is decided; the waiting rows themselves are found through the state index.
ALTER TABLE batch_row ADD COLUMN waits_for VARCHAR(200);
CREATE INDEX ix_batch_row_waits_for ON batch_row (waits_for);
