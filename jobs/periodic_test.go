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

type tickArgs struct{}

func (tickArgs) Kind() string { return "test_tick" }

// Two worker processes share a schedule of one run a second: the work is
// enqueued once a second, not twice; when one process stops (as a kill
// would stop it), the other goes on within a tick, with no leader to wait
// for.
func TestPeriodicWithoutLeader(t *testing.T) {
	t.Parallel()
	d, err := db.Open(context.Background(), testkit.DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	queue := "test_" + testkit.Unique() // no worker fetches it: the jobs stay to be counted
	client, err := river.NewClient(riverpgxv5.New(d.Pool), &river.Config{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	p := []jobs.Periodic{{Name: "test_tick_" + testkit.Unique(), Every: time.Second,
		Job: func() (river.JobArgs, *river.InsertOpts) { return tickArgs{}, &river.InsertOpts{Queue: queue} }}}
	count := func() int {
		var n int
		require.NoError(t, d.Pool.QueryRow(context.Background(), "SELECT count(*) FROM river_job WHERE queue = $1", queue).Scan(&n))
		return n
	}

	first, stopFirst := context.WithCancel(context.Background())
	second, stopSecond := context.WithCancel(context.Background())
	t.Cleanup(stopSecond)
	done := make(chan struct{})
	go func() { jobs.RunPeriodic(first, d, client, slog.New(slog.DiscardHandler), p); close(done) }()
	go jobs.RunPeriodic(second, d, client, slog.New(slog.DiscardHandler), p)

	start := time.Now()
	time.Sleep(3500 * time.Millisecond)
	n := count()
	// Runs at 0, 1, 2 and 3 s: one per second however many processes tick.
	require.GreaterOrEqual(t, n, 3, "after %v", time.Since(start))
	require.LessOrEqual(t, n, 5, "two processes enqueued the same run")

	stopFirst()
	<-done
	require.Eventually(t, func() bool { return count() >= n+2 }, 5*time.Second, 50*time.Millisecond,
		"the other process goes on alone")
}
