-- The voucher to the customer (docs/customer-messages.md): a row's optional notify_to (a mobile
-- number in the +62 form, or an e-mail address, as the intake read it), and the row an outbox
-- message was written for, so that the report can tell each row's customer_notified. The customer's
-- message is written in the same transaction as the row's SUCCESS, at most one per row (its event id
-- is the row's).
ALTER TABLE batch_row ADD COLUMN notify_to VARCHAR(320);
ALTER TABLE outbox_message ADD COLUMN row_id BIGINT;
CREATE INDEX ix_outbox_message_batch ON outbox_message (batch_id);
-- the product's name for the customer's message, looked up by SKU in the kept price lists at each success
CREATE INDEX ix_price_list_product_sku ON price_list_product (sku);
