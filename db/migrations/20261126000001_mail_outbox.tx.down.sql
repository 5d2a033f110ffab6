DROP INDEX mail_messages_due_idx;
ALTER TABLE mail_messages DROP COLUMN message_id;
ALTER TABLE mail_messages DROP COLUMN next_attempt_at;
