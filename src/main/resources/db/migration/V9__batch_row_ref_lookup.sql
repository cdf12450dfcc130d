-- Intake asks one question per row: where is this ref_id used already (an order of any batch,
-- or any row of this file)? One index on ref_id answers both with a single look-up; it replaces
-- the (batch_id, ref_id) index, so a big file pays for no more indexes than before.
DROP INDEX ix_batch_row_batch_ref;
CREATE INDEX ix_batch_row_ref ON batch_row (ref_id);
