-- What a batch's report needs to be written again, later, from the journal alone:
-- the provider that served the batch (recorded at intake) and the balance its last report showed.
-- (balance_before already holds the balance read at intake until the first order replaces it.)
ALTER TABLE batch ADD COLUMN provider VARCHAR(255);
ALTER TABLE batch ADD COLUMN balance_after BIGINT;
