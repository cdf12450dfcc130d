-- Each account's last price list, kept across restarts (README "Price list"): a provider may refuse a
-- full list more often than its interval (Digiflazz: rc 83, once every 5 minutes) and asks buyers to
-- keep the list in their own database. One header row per account ('' for the single account) with
-- the provider it came from (its base URL: a list of another provider is never used) and the instant
-- it was read; its products in the provider's order. Written when a list is read; a restart uses it
-- while it is younger than the price list's maximum age, prices are checked again at sending as always.
CREATE TABLE price_list (
    account  VARCHAR(20)   PRIMARY KEY,
    provider VARCHAR(2000) NOT NULL,
    read_at  BIGINT        NOT NULL,
    products INTEGER       NOT NULL
);
CREATE TABLE price_list_product (
    account       VARCHAR(20)    NOT NULL,
    list_order    INTEGER        NOT NULL,
    sku           VARCHAR(1000)  NOT NULL,
    name          VARCHAR(1000),
    brand         VARCHAR(1000),
    category      VARCHAR(1000),
    price         BIGINT         NOT NULL,
    selling_price BIGINT         NOT NULL,
    available     BOOLEAN        NOT NULL,
    description   VARCHAR(10000),
    PRIMARY KEY (account, list_order)
);
