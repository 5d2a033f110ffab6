DROP INDEX webhook_deliveries_due_idx;
ALTER TABLE webhook_deliveries DROP COLUMN manual;
