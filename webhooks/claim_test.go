package webhooks_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"commerce/resolvers"
	"commerce/testkit"
)

// Runs of one delivery job at once (a job rescued from a stalled process
// and the run it was rescued from, a duplicate job) post the event once; a
// run after the record was delivered posts nothing; a record claimed by a
// run that died is taken over once the claim ends; a run canceled
// mid-request releases its claim.
func TestDeliveryJobTwicePostsOnce(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, fastRetries) // no workers: the test runs the jobs
	acc, slug := seller(t, env)
	rc := newReceiver(t, always(200))
	// Subscribed to an event the test never causes: no job is enqueued for
	// it (other tests' workers share the database), the test writes the
	// records and runs the jobs itself.
	id, _ := createEndpoint(t, env, acc.Key, rc.URL, "order.disputed")
	w := &resolvers.WebhookWorker{R: env.Server.Resolver}
	ctx := context.Background()
	pool := env.Server.DB.Pool

	job := func(order string) *river.Job[resolvers.DeliverArgs] {
		a := resolvers.DeliverArgs{EndpointID: id, Generation: 1}
		require.NoError(t, pool.QueryRow(ctx, `INSERT INTO webhook_deliveries (endpoint_id, event_id, account_id, type, next_attempt_at)
			SELECT $1, v.id, v.account_id, v.type, now() FROM events v WHERE v.order_id = $2 AND v.type = 'order.paid'
			RETURNING event_id`, id, order).Scan(&a.EventID))
		return &river.Job[resolvers.DeliverArgs]{Args: a}
	}

	j := job(paidOrder(t, env, slug))
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = w.Work(ctx, j)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		var snooze *river.JobSnoozeError
		require.True(t, err == nil || errors.As(err, &snooze), "%v", err)
	}
	require.Len(t, rc.deliveries(), 1)
	var status string
	var attempts int
	var claim *time.Time
	require.NoError(t, pool.QueryRow(ctx, `SELECT status, attempts, claimed_until FROM webhook_deliveries
		WHERE endpoint_id = $1 AND event_id = $2`, id, j.Args.EventID).Scan(&status, &attempts, &claim))
	require.Equal(t, "delivered", status)
	require.Equal(t, 1, attempts)
	require.Nil(t, claim)

	// A rescued run after the delivery: nothing is posted.
	require.NoError(t, w.Work(ctx, j))
	require.Len(t, rc.deliveries(), 1)

	// A claim in force: the run posts nothing and comes back when it ends.
	j2 := job(paidOrder(t, env, slug))
	_, err := pool.Exec(ctx, `UPDATE webhook_deliveries SET claimed_until = now() + interval '15 seconds'
		WHERE endpoint_id = $1 AND event_id = $2`, id, j2.Args.EventID)
	require.NoError(t, err)
	var snooze *river.JobSnoozeError
	require.ErrorAs(t, w.Work(ctx, j2), &snooze)
	require.Greater(t, snooze.Duration, 10*time.Second)
	require.Len(t, rc.deliveries(), 1)

	// The claiming run died: once its claim has ended, a run delivers.
	_, err = pool.Exec(ctx, `UPDATE webhook_deliveries SET claimed_until = now() - interval '1 second'
		WHERE endpoint_id = $1 AND event_id = $2`, id, j2.Args.EventID)
	require.NoError(t, err)
	require.NoError(t, w.Work(ctx, j2))
	require.Len(t, rc.deliveries(), 2)

	// A run canceled mid-request (its process stopping) releases its claim.
	rc.mu.Lock()
	rc.block = make(chan struct{})
	rc.mu.Unlock()
	j3 := job(paidOrder(t, env, slug))
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Work(cctx, j3) }()
	require.Eventually(t, func() bool { return len(rc.deliveries()) == 3 }, 10*time.Second, 10*time.Millisecond)
	cancel()
	require.Error(t, <-done)
	rc.mu.Lock()
	close(rc.block)
	rc.block = nil
	rc.mu.Unlock()
	require.NoError(t, pool.QueryRow(ctx, `SELECT status, claimed_until FROM webhook_deliveries
		WHERE endpoint_id = $1 AND event_id = $2`, id, j3.Args.EventID).Scan(&status, &claim))
	require.Equal(t, "pending", status)
	require.Nil(t, claim)
	require.NoError(t, w.Work(ctx, j3))
	require.Len(t, rc.deliveries(), 4)
}
