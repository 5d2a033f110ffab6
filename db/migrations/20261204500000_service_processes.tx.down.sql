ALTER TABLE idempotency_keys DROP COLUMN owner;
DROP TABLE service_processes;
