package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/jobs"
	"commerce/testkit"
)

type onceArgs struct {
	Scope string `json:"scope"`
}

func (onceArgs) Kind() string { return "test_complete_tx" }

// onceWorker commits its effect (an idempotency key per run) and then
// fails, as a process killed after the commit fails to record the job.
type onceWorker struct {
	river.WorkerDefaults[onceArgs]
	d *db.DB
}

func (w *onceWorker) Work(ctx context.Context, job *river.Job[onceArgs]) error {
	err := w.d.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if _, err := tx.River.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, status_code, expires_at)
			VALUES ($1, $2, '\x00', 200, now() + interval '1 hour')`, job.Args.Scope, fmt.Sprint(job.Attempt)); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
	if err != nil {
		return err
	}
	return errors.New("lost after the commit")
}

// A job whose work commits with jobs.CompleteTx is completed by that
// commit: whatever happens to the process afterwards (River's own
// completion lost to a kill -9, an error), River neither retries nor
// rescues it, so the work (an email stored, say) is not done twice.
func TestCompleteTxCommitsTheCompletion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, err := db.Open(ctx, testkit.DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	queue := "test_" + testkit.Unique()
	workers := river.NewWorkers()
	river.AddWorker(workers, &onceWorker{d: d})
	client, err := river.NewClient(riverpgxv5.New(d.Pool), &river.Config{Logger: slog.New(slog.DiscardHandler),
		Workers: workers, Queues: map[string]river.QueueConfig{queue: {MaxWorkers: 1}}, FetchPollInterval: 100 * time.Millisecond})
	require.NoError(t, err)
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	defer cancel()
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })

	scope := "complete-tx-" + testkit.Unique()
	res, err := client.Insert(ctx, onceArgs{Scope: scope}, &river.InsertOpts{Queue: queue})
	require.NoError(t, err)
	select {
	case ev := <-events:
		require.Equal(t, res.Job.ID, ev.Job.ID)
	case <-time.After(20 * time.Second):
		t.Fatal("the job did not run")
	}
	var state string
	var runs int
	require.NoError(t, d.Pool.QueryRow(ctx, `SELECT state::text, (SELECT count(*) FROM idempotency_keys WHERE scope = $2)
		FROM river_job WHERE id = $1`, res.Job.ID, scope).Scan(&state, &runs))
	require.Equal(t, "completed", state, "the job will run again")
	require.Equal(t, 1, runs)

	// Outside a River worker (a test or a tool calling Work) there is no
	// job row to complete: the work is done all the same.
	other := "complete-tx-" + testkit.Unique()
	err = (&onceWorker{d: d}).Work(ctx, &river.Job[onceArgs]{JobRow: &rivertype.JobRow{}, Args: onceArgs{Scope: other}})
	require.EqualError(t, err, "lost after the commit")
	require.NoError(t, d.Pool.QueryRow(ctx, "SELECT count(*) FROM idempotency_keys WHERE scope = $1", other).Scan(&runs))
	require.Equal(t, 1, runs)
}
