-- The event log's commit-time seq without a rewrite when none is needed
-- (docs/decisions.md, "Purchases at 500/s").
--
-- The deferred trigger of 20261123152000_event_stream takes the account's
-- lock at COMMIT and used to rewrite every row with a fresh seq: an UPDATE
-- of a row with four indexes, inside the lock that queues the account's
-- committers. A row's seq drawn at insert is already a valid commit-time
-- seq when, under the lock, no row of the account committed by another
-- transaction has a larger one: every later committer of the account takes
-- the lock after this commit is visible and will see this row, and so it
-- rewrites any of its own rows below it. A snapshot that sees seq N of an
-- account therefore still sees every lower seq the account will ever have.
--
-- Kept rows keep their insertion order (the sequence draws increasing
-- values: its cache is 1); once a row of the transaction is rewritten, the
-- later ones are too (their insert-time seqs are below the rewritten one),
-- so the rows of one transaction keep their insertion order whichever way
-- each was settled: commerce.events_seq holds the last seq this
-- transaction settled. Rows inserted in a subtransaction (another xmin)
-- count as another transaction's and are rewritten: the safe side. Outside
-- READ COMMITTED the check's snapshot would be the transaction's own, so
-- there every row is rewritten as before.
CREATE OR REPLACE FUNCTION commerce_event_commit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    settled bigint := coalesce(nullif(current_setting('commerce.events_seq', true), '')::bigint, 0);
    fresh   bigint;
BEGIN
    -- 7421338: this lock's namespace (two-key advisory locks).
    PERFORM pg_advisory_xact_lock(7421338, hashtext(NEW.account_id));
    IF NEW.seq > settled
       AND current_setting('transaction_isolation') = 'read committed'
       AND NOT EXISTS (SELECT 1 FROM events e
                       WHERE e.account_id = NEW.account_id AND e.seq > NEW.seq
                         AND e.xmin <> pg_current_xact_id()::xid) THEN
        settled := NEW.seq;
    ELSE
        UPDATE events SET seq = nextval('events_seq_seq') WHERE id = NEW.id RETURNING seq INTO fresh;
        settled := coalesce(fresh, settled);
    END IF;
    PERFORM set_config('commerce.events_seq', settled::text, true);
    PERFORM pg_notify('commerce_events', NEW.account_id);
    RETURN NULL;
END
$$;
