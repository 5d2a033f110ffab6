ALTER TABLE events DROP COLUMN traceparent;
ALTER TABLE mail_messages DROP COLUMN traceparent;
