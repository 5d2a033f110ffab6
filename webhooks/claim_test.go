package webhooks_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// Rounds of the dispatcher at once (processes sharing the database) post
// each record once; a record already delivered is not posted again; a
// record claimed by a round under way is left alone until the claim ends
// (its process died); one round makes two statements, the claim and the
// outcomes, whatever the number of records it delivers.
//
// Not parallel, and the records are due in an hour: the rounds are the
// test's own, no other service's dispatcher takes them.
func TestDispatchRoundsPostOnce(t *testing.T) {
	env := testkit.New(t, fastRetries) // no workers: the test runs the rounds
	acc, slug := seller(t, env)
	rc := newReceiver(t, always(200))
	// Subscribed to an event the test never causes: the test writes the
	// records itself.
	id, _ := createEndpoint(t, env, acc.Key, rc.URL, "order.disputed")
	r := env.Server.Resolver
	ctx := context.Background()
	pool := env.Server.DB.Pool
	asOf := time.Now().Add(2 * time.Hour)

	record := func() string {
		order := paidOrder(t, env, slug)
		var ev string
		require.NoError(t, pool.QueryRow(ctx, `INSERT INTO webhook_deliveries (endpoint_id, event_id, account_id, type, next_attempt_at)
			SELECT $1, v.id, v.account_id, v.type, now() + interval '1 hour' FROM events v WHERE v.order_id = $2 AND v.type = 'order.paid'
			RETURNING event_id`, id, order).Scan(&ev))
		return ev
	}
	state := func(ev string) (status string, attempts int, claim *time.Time) {
		require.NoError(t, pool.QueryRow(ctx, `SELECT status, attempts, claimed_until FROM webhook_deliveries
			WHERE endpoint_id = $1 AND event_id = $2`, id, ev).Scan(&status, &attempts, &claim))
		return
	}

	// Eight rounds at once over five records.
	var evs []string
	for range 5 {
		evs = append(evs, record())
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			_, err := r.DeliverDue(ctx, asOf, 100)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	require.Len(t, rc.deliveries(), 5)
	for _, ev := range evs {
		status, attempts, claim := state(ev)
		require.Equal(t, "delivered", status)
		require.Equal(t, 1, attempts)
		require.Nil(t, claim)
	}

	// A round after the delivery posts nothing.
	_, err := r.DeliverDue(ctx, asOf, 100)
	require.NoError(t, err)
	require.Len(t, rc.deliveries(), 5)

	// A claim in force: nothing posted; once it has ended, posted.
	ev := record()
	_, err = pool.Exec(ctx, `UPDATE webhook_deliveries SET claimed_until = now() + interval '15 seconds'
		WHERE endpoint_id = $1 AND event_id = $2`, id, ev)
	require.NoError(t, err)
	_, err = r.DeliverDue(ctx, asOf, 100)
	require.NoError(t, err)
	require.Len(t, rc.deliveries(), 5)
	_, err = pool.Exec(ctx, `UPDATE webhook_deliveries SET claimed_until = now() - interval '1 second'
		WHERE endpoint_id = $1 AND event_id = $2`, id, ev)
	require.NoError(t, err)
	_, err = r.DeliverDue(ctx, asOf, 100)
	require.NoError(t, err)
	require.Len(t, rc.deliveries(), 6)
	status, _, _ := state(ev)
	require.Equal(t, "delivered", status)

	// Statements per round: the claim and the outcomes, for 1 record as
	// for 4 (the regression guard of issue 15).
	sent := 6
	for _, k := range []int{1, 4} {
		for range k {
			record()
		}
		time.Sleep(50 * time.Millisecond) // let the key's last-used write settle
		before := env.Server.DB.Queries()
		n, err := r.DeliverDue(ctx, asOf, 100)
		require.NoError(t, err)
		require.Equal(t, int64(2), env.Server.DB.Queries()-before, "statements of a round delivering %d", k)
		require.GreaterOrEqual(t, n, k) // and what earlier tests left pending, if any
		sent += k
		require.Len(t, rc.deliveries(), sent)
	}
}
