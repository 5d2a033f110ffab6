-- The processes of the deployment (serve and worker), each renewing its
-- row every few seconds (db/processes.go): a row not renewed for a while is
-- a process that died. An idempotency key's claim names the process that
-- runs the request (owner), so that the client's retry of a request whose
-- process died (kill -9, a lost machine, behind a proxy that answered 502)
-- takes the key over within seconds instead of waiting for the claim to go
-- stale (docs/operations.md, "Retrying through the proxy").
CREATE TABLE service_processes (
    id         text PRIMARY KEY,
    started_at timestamptz NOT NULL DEFAULT now(),
    seen_at    timestamptz NOT NULL DEFAULT now()
);

-- NULL: claimed by a process that keeps no heartbeat (before this
-- migration, or before its first beat): only the staleness rule applies.
ALTER TABLE idempotency_keys ADD COLUMN owner text;
