package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"commerce/jobs"
	"commerce/mail"
	"commerce/resolvers"
	"commerce/testkit"
)

// Every job kind has a Timeout below RescueStuckJobsAfter (River rescues a
// job still running after that long, so a longer job would run twice), and
// the rescue comes within a minute.
func TestTimeoutsBelowRescue(t *testing.T) {
	t.Parallel()
	timeouts := jobs.WorkerTimeouts()
	timeouts[resolvers.DeliverArgs{}.Kind()] = (&resolvers.WebhookWorker{}).Timeout(&river.Job[resolvers.DeliverArgs]{})
	timeouts[resolvers.SandboxRefundArgs{}.Kind()] = (&resolvers.SandboxRefundWorker{}).Timeout(&river.Job[resolvers.SandboxRefundArgs]{})
	timeouts[mail.SendArgs{}.Kind()] = (&mail.SendWorker{}).Timeout(&river.Job[mail.SendArgs]{})
	timeouts["default"] = jobs.DefaultJobTimeout
	require.Len(t, timeouts, 7)
	for kind, d := range timeouts {
		require.Positive(t, d, kind)
		require.Less(t, d, jobs.RescueStuckJobsAfter, kind)
	}
	// A delivery job leaves room for the 10 s request.
	require.GreaterOrEqual(t, timeouts[resolvers.DeliverArgs{}.Kind()], 12*time.Second)
	require.LessOrEqual(t, jobs.RescueStuckJobsAfter, 30*time.Second)
}

// A job left running by a dead process (attempted long ago by a client that
// is gone) is rescued and runs again.
func TestStuckJobRescued(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	ctx := context.Background()
	pool := env.Server.DB.Pool
	scope := "rescue-" + testkit.Unique()
	_, err := pool.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, status_code, expires_at) VALUES
		($1, 'old', '\x00', 201, now() - interval '1 minute')`, scope)
	require.NoError(t, err)

	// A job as a killed process leaves it: running, attempted by a client
	// that no longer exists, longer ago than RescueStuckJobsAfter.
	res, err := env.Server.Jobs.Insert(ctx, jobs.IdempotencyCleanupArgs{}, &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_by = '{dead-client}',
		attempted_at = now() - make_interval(secs => $2) WHERE id = $1`, res.Job.ID, (jobs.RescueStuckJobsAfter + time.Second).Seconds())
	require.NoError(t, err)

	// The rescuer runs every 30 s on the leader; the retry comes a second
	// after the rescue.
	require.Eventually(t, func() bool {
		var state string
		require.NoError(t, pool.QueryRow(ctx, "SELECT state FROM river_job WHERE id = $1", res.Job.ID).Scan(&state))
		return state == "completed"
	}, 45*time.Second, 200*time.Millisecond)
	var n int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM idempotency_keys WHERE scope = $1", scope).Scan(&n))
	require.Zero(t, n)
}
