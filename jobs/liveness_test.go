package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/jobs"
	"commerce/testkit"
)

type stuckArgs struct{}

func (stuckArgs) Kind() string { return "test_stuck" }

type stuckWorker struct {
	river.WorkerDefaults[stuckArgs]
}

func (stuckWorker) Work(context.Context, *river.Job[stuckArgs]) error { return nil }

// A job left running by a worker process that stopped beating (killed) is
// made available again within a few seconds by the others and runs; jobs of
// a process still beating, or of one with no row (an earlier version, or
// one that stopped cleanly: left to River's rescuer), are left alone.
func TestDeadProcessJobsRescued(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, err := db.Open(ctx, testkit.DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	queue := "test_" + testkit.Unique()
	workers := river.NewWorkers()
	river.AddWorker(workers, stuckWorker{})
	client, err := river.NewClient(riverpgxv5.New(d.Pool), &river.Config{Logger: slog.New(slog.DiscardHandler),
		Workers: workers, Queues: map[string]river.QueueConfig{queue: {MaxWorkers: 2}}, FetchPollInterval: 100 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })

	u := testkit.Unique()
	dead, live, unknown := "dead-"+u, "live-"+u, "unknown-"+u
	_, err = d.Pool.Exec(ctx, `INSERT INTO service_processes (id, seen_at) VALUES
		($1, now() - make_interval(secs => $3) - interval '1 second'), ($2, now())`, dead, live, db.ProcessGone.Seconds())
	require.NoError(t, err)
	running := func(by string) int64 {
		res, err := client.Insert(ctx, stuckArgs{}, &river.InsertOpts{Queue: queue, ScheduledAt: time.Now().Add(time.Hour)})
		require.NoError(t, err)
		_, err = d.Pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_by = ARRAY[$2],
			attempted_at = now() WHERE id = $1`, res.Job.ID, by)
		require.NoError(t, err)
		return res.Job.ID
	}
	deadJob, liveJob, unknownJob := running(dead), running(live), running(unknown)

	lctx, stop := context.WithCancel(ctx)
	t.Cleanup(stop)
	start := time.Now()
	go jobs.RunLiveness(lctx, d, slog.New(slog.DiscardHandler))
	state := func(id int64) string {
		var s string
		require.NoError(t, d.Pool.QueryRow(ctx, "SELECT state FROM river_job WHERE id = $1", id).Scan(&s))
		return s
	}
	require.Eventually(t, func() bool { return state(deadJob) == "completed" }, 5*time.Second, 50*time.Millisecond)
	t.Logf("the dead process's job ran again %s after the rescue started", time.Since(start).Round(time.Millisecond))
	var attempt int
	var last string
	require.NoError(t, d.Pool.QueryRow(ctx, `SELECT attempt, errors[array_length(errors, 1)]->>'error' FROM river_job WHERE id = $1`,
		deadJob).Scan(&attempt, &last))
	require.Equal(t, 2, attempt)
	require.Contains(t, last, dead)
	require.Equal(t, "running", state(liveJob))
	require.Equal(t, "running", state(unknownJob))
	_, err = d.Pool.Exec(ctx, "DELETE FROM river_job WHERE id = ANY($1)", []int64{liveJob, unknownJob})
	require.NoError(t, err)
}
