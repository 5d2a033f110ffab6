package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/jobs"
	"commerce/testkit"
)

type flakyArgs struct{}

func (flakyArgs) Kind() string { return "test_flaky" }

// flakyWorker fails its first attempt and succeeds on the second.
type flakyWorker struct {
	river.WorkerDefaults[flakyArgs]
}

func (w *flakyWorker) Work(_ context.Context, job *river.Job[flakyArgs]) error {
	if job.Attempt == 1 {
		return errors.New("deadlock detected (SQLSTATE 40P01)")
	}
	return nil
}

// NextRetry runs the second attempt at once.
func (w *flakyWorker) NextRetry(*river.Job[flakyArgs]) time.Time { return time.Now() }

// lockedBuffer is a log destination written by River's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A job's failed attempt is logged as a warning with its kind, attempt and
// error (River itself logs it at info, which the service does not show).
func TestObserveLogsFailedAttempts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	d, err := db.Open(ctx, testkit.DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	var out lockedBuffer
	log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ws := river.NewWorkers()
	river.AddWorker(ws, &flakyWorker{})
	client, queue := ownQueueClient(t, d, ws)
	jobs.Observe(ctx, client, prometheus.NewRegistry(), log)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	_, err = client.Insert(ctx, flakyArgs{}, &river.InsertOpts{Queue: queue})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		s := out.String()
		return strings.Contains(s, "job failed; it will run again") && strings.Contains(s, "kind=test_flaky") &&
			strings.Contains(s, "attempt=1") && strings.Contains(s, "40P01")
	}, 10*time.Second, 20*time.Millisecond, "log: %s", out.String())
}

type slowArgs struct{}

func (slowArgs) Kind() string { return "test_slow" }

// slowWorker reports when it starts, then works for 300 ms unless its
// context ends first.
type slowWorker struct {
	river.WorkerDefaults[slowArgs]
	started chan struct{}
}

func (w *slowWorker) Work(ctx context.Context, _ *river.Job[slowArgs]) error {
	close(w.started)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(300 * time.Millisecond):
		return nil
	}
}

// The end of the context a process started its workers with (SIGTERM, or a
// test's end) does not cancel a running job: Stop drains it, so it completes
// once instead of being cut off (then retried, or left running until the
// rescuer finds it 30 s later).
func TestStopDrainsRunningJobs(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	d, err := db.Open(context.Background(), testkit.DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	w := &slowWorker{started: make(chan struct{})}
	ws := river.NewWorkers()
	river.AddWorker(ws, w)
	client, queue := ownQueueClient(t, d, ws)
	require.NoError(t, jobs.Start(ctx, client))
	res, err := client.Insert(context.Background(), slowArgs{}, &river.InsertOpts{Queue: queue})
	require.NoError(t, err)
	select {
	case <-w.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the job did not start")
	}
	cancel()
	stopCtx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	require.NoError(t, jobs.Stop(stopCtx, client))
	job, err := client.JobGet(context.Background(), res.Job.ID)
	require.NoError(t, err)
	require.Equal(t, rivertype.JobStateCompleted, job.State, "errors: %v", job.Errors)
}

// ownQueueClient is a River client that works only a queue of its own: the
// package's tests share one database, and a job of the default queue may be
// fetched by another test's workers, which do not know its kind.
func ownQueueClient(t *testing.T, d *db.DB, ws *river.Workers) (*jobs.Client, string) {
	t.Helper()
	queue := "test_" + testkit.Unique()
	client, err := river.NewClient(riverpgxv5.New(d.Pool), &river.Config{
		Logger: slog.New(slog.DiscardHandler), Workers: ws, Queues: map[string]river.QueueConfig{queue: {MaxWorkers: 1}},
		FetchCooldown: 10 * time.Millisecond, FetchPollInterval: 20 * time.Millisecond,
	})
	require.NoError(t, err)
	return client, queue
}
