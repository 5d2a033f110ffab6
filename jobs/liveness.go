package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"commerce/db"
)

// Liveness of the worker processes, for a quicker rescue than River's.
//
// River makes a job a dead process left `running` retryable once it has
// been running for RescueStuckJobsAfter (30 s), at its rescuer's next pass
// (every 30 s, not configurable), which runs on the leader (a dead
// leader's lease lasts 15 s): the leader-kill drill measured 47 s before
// the library sign-in links of the jobs a kill cut went out. So every
// worker process marks its River client alive in worker_heartbeats every
// HeartbeatEvery, for heartbeatLease, and makes available again the jobs
// running under a client whose mark has expired: within about
// heartbeatLease + HeartbeatEvery of a kill, whichever process died.
//
// The lease is what a live process may go without beating before its jobs
// run a second time beside it (a stall of the database or of the process),
// so it is 10 s, well beyond the one-statement beat a second; River's
// rescuer stays for the jobs of clients that never beat (an earlier
// version during a rolling deploy) or whose row is gone.
const (
	// HeartbeatEvery is how often a worker process beats and looks for
	// the jobs of dead ones.
	HeartbeatEvery = time.Second
	// heartbeatLease is how long a beat keeps a process alive.
	heartbeatLease = 10 * time.Second
	// heartbeatForget is how long a dead process's row is kept.
	heartbeatForget = time.Hour
)

// beatQuery marks the client alive.
const beatQuery = `INSERT INTO worker_heartbeats (client_id, alive_until)
VALUES ($1, now() + make_interval(secs => $2))
ON CONFLICT (client_id) DO UPDATE SET alive_until = excluded.alive_until`

// rescueQuery makes the jobs of dead clients available again (or discards
// those out of attempts), recording why as River's rescuer does (an
// attempt error). Rows another process is rescuing are skipped.
const rescueQuery = `WITH stuck AS (
  SELECT j.id, h.client_id FROM river_job j
  JOIN worker_heartbeats h ON h.client_id = j.attempted_by[array_length(j.attempted_by, 1)]
  WHERE j.state = 'running' AND h.alive_until < now()
  FOR UPDATE OF j SKIP LOCKED)
UPDATE river_job j SET
  state = CASE WHEN j.attempt >= j.max_attempts THEN 'discarded'::river_job_state ELSE 'available'::river_job_state END,
  finalized_at = CASE WHEN j.attempt >= j.max_attempts THEN now() END,
  scheduled_at = now(),
  errors = array_append(j.errors, jsonb_build_object('at', now(), 'attempt', j.attempt,
    'error', 'Stuck job rescued: its process (' || stuck.client_id || ') stopped beating', 'trace', ''))
FROM stuck WHERE j.id = stuck.id AND j.state = 'running'
RETURNING j.kind`

// RunLiveness beats for client and rescues the jobs of dead processes every
// HeartbeatEvery until ctx ends. The server runs it until its workers have
// stopped, so a draining process is never taken for a dead one.
func RunLiveness(ctx context.Context, d *db.DB, client *Client, log *slog.Logger) {
	id := client.ID()
	tick := time.NewTicker(HeartbeatEvery)
	defer tick.Stop()
	for n := 0; ; n++ {
		if err := liveness(ctx, d, id, n%3600 == 0, log); err != nil && ctx.Err() == nil {
			log.WarnContext(ctx, "worker heartbeat failed; trying again next tick", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// liveness is one tick: the beat, the rescue, and now and then the
// forgetting of long-dead rows.
func liveness(ctx context.Context, d *db.DB, id string, forget bool, log *slog.Logger) error {
	if _, err := d.Pool.Exec(ctx, beatQuery, id, heartbeatLease.Seconds()); err != nil {
		return fmt.Errorf("beat: %w", err)
	}
	rows, err := d.Pool.Query(ctx, rescueQuery)
	if err != nil {
		return fmt.Errorf("rescue the jobs of dead processes: %w", err)
	}
	rescued := map[string]int{}
	for rows.Next() {
		var kind string
		if err := rows.Scan(&kind); err != nil {
			rows.Close()
			return err
		}
		rescued[kind]++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("rescue the jobs of dead processes: %w", err)
	}
	if len(rescued) > 0 {
		log.WarnContext(ctx, "jobs of a dead worker process made available again", "jobs", rescued)
	}
	if forget {
		if _, err := d.Pool.Exec(ctx, `DELETE FROM worker_heartbeats WHERE alive_until < now() - make_interval(secs => $1)`,
			heartbeatForget.Seconds()); err != nil {
			return fmt.Errorf("forget dead processes: %w", err)
		}
	}
	return nil
}
