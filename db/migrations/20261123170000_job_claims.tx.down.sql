ALTER TABLE mail_messages DROP COLUMN claimed_until;
ALTER TABLE webhook_deliveries DROP COLUMN claimed_until;
