-- The event log's order is its commit order, per account (CONTRACT §12, §14;
-- docs/decisions.md, "Live events").
--
-- seq is drawn when a row is inserted, but transactions commit in any
-- order: one holding seq 10 may commit after another's seq 11, and a reader
-- that had moved past 11 would never see 10. So an event takes its final seq
-- when its transaction commits: a deferred trigger, which runs inside
-- COMMIT after all the transaction's own work, takes a per-account
-- transaction lock, draws a fresh seq and rewrites the row. The lock is
-- held until the commit is visible, so the next committer of the same
-- account draws a larger seq only after this one is visible: for any
-- account, a snapshot that sees seq N sees every seq below N it will ever
-- have. `seq > last` (GET /v1/events, the subscription) then never skips.
-- Writers of different accounts never wait for each other (up to hash
-- collisions of the lock key); writers of one account wait only for each
-- other's commit. A transaction writing events of several accounts would
-- take their locks in insertion order (none does).
--
-- The same trigger wakes the live readers: NOTIFY commerce_events with the
-- account id, delivered when the transaction commits (never for a rollback).
CREATE FUNCTION commerce_event_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- 7421338: this lock's namespace (two-key advisory locks).
    PERFORM pg_advisory_xact_lock(7421338, hashtext(NEW.account_id));
    UPDATE events SET seq = nextval('events_seq_seq') WHERE id = NEW.id;
    PERFORM pg_notify('commerce_events', NEW.account_id);
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER events_commit
    AFTER INSERT ON events
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION commerce_event_commit();
