-- Several accounts (README "Several accounts"): whose rate a call counts against. NULL: the single
-- account of topup.base-url. Each account's rate budget counts only its own calls, so two accounts
-- together send at both their rates.
ALTER TABLE provider_call ADD COLUMN account VARCHAR(100);
CREATE INDEX ix_provider_call_account_at ON provider_call (account, reserved_at);

-- Each named account's limits as last learned, so that a restart or a node taking over judges its
-- window by them at once (account_limits keeps the single account's).
CREATE TABLE account_limits_named (
    account     VARCHAR(100) PRIMARY KEY,
    per_minute  INTEGER NOT NULL,
    per_day     BIGINT  NOT NULL,
    used_today  BIGINT  NOT NULL,
    learned_at  BIGINT  NOT NULL
);
