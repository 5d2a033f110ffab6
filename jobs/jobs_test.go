package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/jobs"
	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// The idempotency cleanup job, run by River's workers, deletes expired keys
// and keeps live ones.
func TestIdempotencyCleanupJob(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	ctx := context.Background()
	pool := env.Server.DB.Pool
	scope := "test-" + testkit.Unique()
	_, err := pool.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, status_code, expires_at) VALUES
		($1, 'old', '\x00', 201, now() - interval '1 minute'), ($1, 'live', '\x00', 201, now() + interval '1 hour')`, scope)
	require.NoError(t, err)

	_, err = env.Server.Jobs.Insert(ctx, jobs.IdempotencyCleanupArgs{}, nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		var keys []string
		rows, err := pool.Query(ctx, "SELECT key FROM idempotency_keys WHERE scope = $1", scope)
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			var k string
			require.NoError(t, rows.Scan(&k))
			keys = append(keys, k)
		}
		return len(keys) == 1 && keys[0] == "live"
	}, 10*time.Second, 50*time.Millisecond)
}
