-- Finds an earlier row of the same file with a ref_id (rejected rows included) during intake.
CREATE INDEX ix_batch_row_batch_ref ON batch_row (batch_id, ref_id);
