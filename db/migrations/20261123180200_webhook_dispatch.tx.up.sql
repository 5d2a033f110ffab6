-- Webhook delivery without a job per record (CONTRACT §12, issue 15): the
-- service's dispatcher claims due records in batches straight from this
-- table. manual: a retry the seller asked for, delivered whatever the
-- endpoint's status (automatic attempts wait for it to be enabled).
ALTER TABLE webhook_deliveries ADD COLUMN manual boolean NOT NULL DEFAULT false;

-- The dispatcher's claim: due pending records, oldest due first.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
