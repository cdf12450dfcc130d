-- The repeat guard (README "Rejected rows", topup.repeat-window): an accepted row records who it
-- orders for as one key (product_sku, customer_no in one form, zone; see intake/RepeatKey), so that
-- intake finds an earlier order of the same product for the same customer with an index look-up per
-- key instead of a scan of a journal of millions of orders. NULL for rejected rows and for rows
-- recorded before: those are never repeats of anything (NULLs take no room in the look-ups).
ALTER TABLE batch_row ADD COLUMN repeat_key VARCHAR(400);
CREATE INDEX ix_batch_row_repeat ON batch_row (repeat_key);
