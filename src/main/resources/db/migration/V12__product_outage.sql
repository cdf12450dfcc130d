-- Products the provider reports unavailable (README "Outages: rows held, not sent"): while a product
-- is held, its accepted rows stay queued but are not sent, across restarts and on whichever node
-- submits. `since` is the first refusal of the outage (rows are rejected once topup.outage-wait has
-- passed from it); a product listed as available again is released (held FALSE) but keeps its
-- `since` until an order of it works, so an outage that comes and goes still ends its wait.
CREATE TABLE product_outage (
    product_sku VARCHAR(1000) PRIMARY KEY,
    since       BIGINT       NOT NULL,
    held        BOOLEAN      NOT NULL,
    message     VARCHAR(1000),
    updated_at  BIGINT       NOT NULL
);
