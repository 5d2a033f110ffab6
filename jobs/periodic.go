package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"commerce/db"
)

// Periodic is work enqueued every Every by whichever worker process claims
// it first: no process leads, so the death of one (kill -9 included) delays
// it by at most a tick on the others. It runs at once the first time a
// database sees it.
type Periodic struct {
	// Name identifies the schedule (one row of periodic_schedules).
	Name string
	// Every is the time between two runs, at least a second.
	Every time.Duration
	// Job builds the job to enqueue.
	Job func() (river.JobArgs, *river.InsertOpts)
}

// Builtin is this package's own periodic work: the expired idempotency keys
// hourly, and the abandoned uploads every uploadCleanupEvery.
func Builtin() []Periodic {
	return []Periodic{
		{Name: IdempotencyCleanupArgs{}.Kind(), Every: time.Hour,
			Job: func() (river.JobArgs, *river.InsertOpts) { return IdempotencyCleanupArgs{}, nil }},
		{Name: UploadCleanupArgs{}.Kind(), Every: uploadCleanupEvery,
			Job: func() (river.JobArgs, *river.InsertOpts) { return UploadCleanupArgs{}, nil }},
	}
}

// PeriodicTick is how often each worker process looks for due schedules.
const PeriodicTick = time.Second

// periodicSlack lets a schedule run this much before its interval is over,
// so that a process ticking once a second on the dot is not a tick late
// every other time: runs are Every apart, give or take a few tenths of a
// second when several processes tick at other moments.
const periodicSlack = 200 * time.Millisecond

// RunPeriodic claims and enqueues due work every PeriodicTick until ctx
// ends. A claim and its job commit together: a process that dies between
// them leaves the schedule due for another. Each process uses its own
// intervals (Every), so in tests sharing a database the shortest drives;
// every process of one deployment has the same.
func RunPeriodic(ctx context.Context, d *db.DB, client *Client, log *slog.Logger, periodic []Periodic) {
	if len(periodic) == 0 {
		return
	}
	byName := make(map[string]Periodic, len(periodic))
	names, every := make([]string, len(periodic)), make([]float64, len(periodic))
	for i, p := range periodic {
		byName[p.Name] = p
		names[i], every[i] = p.Name, max(p.Every, time.Second).Seconds()
	}
	tick := time.NewTicker(PeriodicTick)
	defer tick.Stop()
	known := false // the schedules' rows exist
	tickOnce := func() error {
		if !known {
			if _, err := d.Pool.Exec(ctx, `INSERT INTO periodic_schedules (name) SELECT unnest($1::text[])
				ON CONFLICT (name) DO NOTHING`, names); err != nil {
				return err
			}
			known = true
		}
		return claimDue(ctx, d, client, byName, names, every)
	}
	for {
		if err := tickOnce(); err != nil && ctx.Err() == nil {
			log.WarnContext(ctx, "periodic work not enqueued; trying again next tick", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// claimDue enqueues the jobs of the schedules due for this process in one
// transaction.
func claimDue(ctx context.Context, d *db.DB, client *Client, byName map[string]Periodic, names []string, every []float64) error {
	return d.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		rows, err := tx.River.Query(ctx, `WITH due AS (
				SELECT s.name FROM periodic_schedules s
				JOIN unnest($1::text[], $2::float8[]) AS e(name, every) ON e.name = s.name
				WHERE s.last_run_at <= now() - make_interval(secs => e.every) + $3::interval
				FOR UPDATE OF s SKIP LOCKED)
			UPDATE periodic_schedules s SET last_run_at = now() FROM due WHERE s.name = due.name
			RETURNING s.name`, names, every, periodicSlack)
		if err != nil {
			return fmt.Errorf("claim periodic schedules: %w", err)
		}
		var due []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return err
			}
			due = append(due, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, n := range due {
			args, opts := byName[n].Job()
			if _, err := client.InsertTx(ctx, tx.River, args, opts); err != nil {
				return fmt.Errorf("enqueue %s: %w", n, err)
			}
		}
		return nil
	})
}
