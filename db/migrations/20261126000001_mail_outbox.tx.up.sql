-- Mail delivery without a job per message (issue 20): the mail dispatcher
-- of every working process claims due pending messages in batches straight
-- from this table, as the webhook dispatcher does with its records.
--
-- next_attempt_at: when a pending message is due (now for a new message,
-- later for a retry after a transient SMTP failure). Messages stored before
-- this migration are due at once: their mail_send jobs, which still exist,
-- complete without sending, and the dispatcher delivers the records.
-- message_id: the Message-ID header the message goes out under, fixed
-- before the first attempt, so that a resend after a crash (between the SMTP
-- server's acceptance and the status write) is the same message, which
-- receivers deduplicate. NULL only for rows written before this migration
-- (or by a process of the earlier version); the first claim sets it to what
-- that version sent: the message id at MAIL_FROM's domain.
ALTER TABLE mail_messages ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE mail_messages ADD COLUMN message_id text;

-- The dispatcher's claim: due pending messages, oldest due first.
CREATE INDEX mail_messages_due_idx ON mail_messages (next_attempt_at) WHERE status = 'pending';
