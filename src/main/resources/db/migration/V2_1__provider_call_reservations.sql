-- A provider call is recorded when its slot in the rate budget is reserved, before the request
-- leaves, and completed when its answer comes; a restart rebuilds the rate window from this
-- record exactly (a reservation never completed counts as answered at the latest possible moment).
-- Version 2.1: V2 was taken when this was written.

ALTER TABLE provider_call RENAME COLUMN called_at TO reserved_at;
ALTER TABLE provider_call ADD COLUMN answered_at BIGINT;            -- NULL: no answer recorded (yet)
ALTER TABLE provider_call ALTER COLUMN http_status DROP NOT NULL;   -- 0: no answer came; NULL: not completed
-- Calls recorded before this version were recorded when their answer came.
UPDATE provider_call SET answered_at = reserved_at;

-- The account's limits as last learned from the provider, so that a restart judges the rate
-- window by them at once. One row: a journal serves one account.
CREATE TABLE account_limits (
    id          INTEGER PRIMARY KEY,
    per_minute  INTEGER NOT NULL,
    per_day     BIGINT  NOT NULL,
    used_today  BIGINT  NOT NULL,
    learned_at  BIGINT  NOT NULL
);
