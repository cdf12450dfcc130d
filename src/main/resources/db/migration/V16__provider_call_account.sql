-- Several accounts (README "Several accounts"): whose rate a call counts against. NULL: the single
-- account of topup.base-url. Each account's rate budget counts only its own calls, so two accounts
-- together send at both their rates.
ALTER TABLE provider_call ADD COLUMN account VARCHAR(100);
CREATE INDEX ix_provider_call_account_at ON provider_call (account, reserved_at);
