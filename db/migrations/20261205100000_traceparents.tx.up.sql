-- The W3C traceparent of the span that stored an outbox row, when tracing
-- is on (docs/operations.md, "Tracing"): an email's send attempts and an
-- event's webhook delivery attempts run later, on another goroutine or
-- process, and their spans link back to the request (or job) that caused
-- them. NULL when tracing was off: nothing is kept.
ALTER TABLE mail_messages ADD COLUMN traceparent text;
ALTER TABLE events ADD COLUMN traceparent text;
