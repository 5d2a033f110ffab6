-- Crash recovery: a run of a delivery job claims its record until then, so
-- that a second run of the same job (rescued from a process that stalled,
-- or a duplicate) does not send it again meanwhile. NULL: not claimed.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until timestamptz;
ALTER TABLE mail_messages ADD COLUMN claimed_until timestamptz;
