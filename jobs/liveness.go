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
// the library sign-in links of the jobs a kill cut went out. Every process
// keeps its row in service_processes (DB.Heartbeat, which the server runs
// until its workers have stopped, so a draining process is never taken for
// a dead one), and River's client id is that row's id (New). So every
// worker process, each RescueEvery, makes available again the jobs running
// under a client whose row has not been renewed for db.ProcessGone: within
// about ProcessGone + RescueEvery of a kill, whichever process died.
//
// ProcessGone (10 s) is what a live process may go without beating before
// its jobs run a second time beside it (a stall of the database or of the
// process), well beyond a beat every 2 s; River's rescuer stays for the
// jobs of clients with no row (an earlier version during a rolling deploy,
// or a process that stopped cleanly and deleted its row).
const RescueEvery = time.Second

// rescueQuery makes the jobs of dead clients available again (or discards
// those out of attempts), recording why as River's rescuer does (an
// attempt error). Rows another process is rescuing are skipped.
const rescueQuery = `WITH stuck AS (
  SELECT j.id, p.id AS client_id FROM river_job j
  JOIN service_processes p ON p.id = j.attempted_by[array_length(j.attempted_by, 1)]
  WHERE j.state = 'running' AND p.seen_at < now() - make_interval(secs => $1)
  FOR UPDATE OF j SKIP LOCKED)
UPDATE river_job j SET
  state = CASE WHEN j.attempt >= j.max_attempts THEN 'discarded'::river_job_state ELSE 'available'::river_job_state END,
  finalized_at = CASE WHEN j.attempt >= j.max_attempts THEN now() END,
  scheduled_at = now(),
  errors = array_append(j.errors, jsonb_build_object('at', now(), 'attempt', j.attempt,
    'error', 'Stuck job rescued: its process (' || stuck.client_id || ') stopped beating', 'trace', ''))
FROM stuck WHERE j.id = stuck.id AND j.state = 'running'
RETURNING j.kind`

// RunLiveness rescues the jobs of dead processes every RescueEvery until
// ctx ends.
func RunLiveness(ctx context.Context, d *db.DB, log *slog.Logger) {
	tick := time.NewTicker(RescueEvery)
	defer tick.Stop()
	for {
		if err := rescue(ctx, d, log); err != nil && ctx.Err() == nil {
			log.WarnContext(ctx, "rescue the jobs of dead processes failed; trying again next tick", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// rescue is one tick.
func rescue(ctx context.Context, d *db.DB, log *slog.Logger) error {
	rows, err := d.Pool.Query(ctx, rescueQuery, db.ProcessGone.Seconds())
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
	return nil
}
