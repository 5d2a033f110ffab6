CREATE OR REPLACE FUNCTION commerce_event_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- 7421338: this lock's namespace (two-key advisory locks).
    PERFORM pg_advisory_xact_lock(7421338, hashtext(NEW.account_id));
    UPDATE events SET seq = nextval('events_seq_seq') WHERE id = NEW.id;
    PERFORM pg_notify('commerce_events', NEW.account_id);
    RETURN NULL;
END
$$;
