-- The operator's hand on a batch (README "Cancel, hold, resume"): `hold BATCH` sets held_at and its
-- rows stay queued, not sent, until `resume BATCH` clears it; `cancel BATCH` sets cancelled_at and
-- its rows not yet sent become REJECTED ("cancelled ..."), in the same transaction. Both are read by
-- whichever process submits (the next row is marked SENDING only while neither is set), so they
-- hold across restarts and a failover to the other node.
ALTER TABLE batch ADD COLUMN held_at BIGINT;
ALTER TABLE batch ADD COLUMN cancelled_at BIGINT;
