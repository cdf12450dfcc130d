-- Several accounts on two nodes (README "Two nodes", "Several accounts"): the account a row is at now
-- (candidate number attempt of its route), kept beside the route so that the node leading an account
-- takes that account's rows, and only those, in one indexed query. NULL with one account, and for rows
-- routed before this column existed (their account is read from their route).
ALTER TABLE batch_row ADD COLUMN account VARCHAR(20);
CREATE INDEX ix_batch_row_account_state ON batch_row (account, state);
