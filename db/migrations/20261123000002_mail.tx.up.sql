-- Every email the service sends (mail/): what was rendered and how its
-- delivery went. The River job mail_send delivers a pending message.
CREATE TABLE mail_messages (
    id          text PRIMARY KEY,
    template    text NOT NULL,
    to_address  text NOT NULL,
    subject     text NOT NULL,
    text_body   text NOT NULL,
    html_body   text NOT NULL DEFAULT '',
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'logged', 'failed')),
    attempts    integer NOT NULL DEFAULT 0,
    last_error  text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    sent_at     timestamptz
);

-- The sandbox mailbox lists the newest messages first.
CREATE INDEX mail_messages_created_idx ON mail_messages (created_at DESC, id DESC);
