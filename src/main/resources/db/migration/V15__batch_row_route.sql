-- Several accounts (README "Several accounts"): where a row may be ordered, decided at intake, and
-- which of those places it is at now. route: JSON list of account, SKU at that account and price
-- there, three strings per candidate, best first; NULL with a single account. attempt: 1 for the
-- first candidate under the row's own ref_id; n for candidate n under ref_id-Fn, after each earlier
-- candidate refused the row in a way that proves it took no order.
ALTER TABLE batch_row ADD COLUMN route VARCHAR(2000);
ALTER TABLE batch_row ADD COLUMN attempt INTEGER DEFAULT 1 NOT NULL;
