-- A dead worker process's jobs rescued in seconds (issue 28 item 5): every
-- worker process marks its River client alive each second
-- (jobs.RunLiveness); the jobs left `running` by a client whose mark has
-- expired are made available again by the surviving processes, instead of
-- waiting for River's rescuer (30 s after they started, at a pass every
-- 30 s on a leader that itself takes 15 s to replace). Global: one row per
-- process, not per account; rows dead for an hour are deleted.
CREATE TABLE worker_heartbeats (
    client_id text PRIMARY KEY,
    alive_until timestamptz NOT NULL
);
