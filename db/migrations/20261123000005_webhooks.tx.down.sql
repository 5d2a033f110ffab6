DROP TABLE service_keys;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_endpoints DROP COLUMN deleted_at;
