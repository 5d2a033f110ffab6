-- Periodic work without a leader (issue 28 item 5): every worker process
-- ticks each second and claims a due schedule by updating its row (rows
-- another process holds are skipped), enqueuing its job in the same
-- transaction. River's own periodic jobs run only on its elected leader,
-- whose death stopped them for about 20 s (its leadership outlives it by
-- 15 s). Global: one row per kind of periodic work, not per account.
CREATE TABLE periodic_schedules (
    name text PRIMARY KEY,
    last_run_at timestamptz NOT NULL DEFAULT '-infinity'
);
