package resolvers_test

import (
	"context"
	"hash/fnv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/resolvers"
	"commerce/testkit"
)

// Two payments of one seller running at once, on two connections, add to
// two shards of the seller's stats: the second does not wait for the
// first's commit. The shard used to be the order id's hash, so two orders
// whose ids hashed alike queued on one row (as here: the second timed
// out). The totals are exact once both commit.
func TestConcurrentPaymentsTakeOtherShards(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	ctx := context.Background()

	// Two order ids on the same shard by the order id's hash.
	oldShard := func(id string) uint32 {
		h := fnv.New32a()
		_, _ = h.Write([]byte(id))
		return h.Sum32() % 16
	}
	first := &db.Order{ID: db.NewID("ord"), AccountID: acc.ID}
	second := &db.Order{ID: db.NewID("ord"), AccountID: acc.ID}
	for oldShard(second.ID) != oldShard(first.ID) {
		second.ID = db.NewID("ord")
	}
	month := time.Date(time.Now().UTC().Year(), time.Now().UTC().Month(), 1, 0, 0, 0, 0, time.UTC)

	added, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- env.Server.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
			if err := resolvers.AddStats(ctx, tx, first, 700, &month); err != nil {
				return err
			}
			close(added)
			<-release // the first payment's transaction stays open
			return nil
		})
	}()
	select {
	case <-added:
	case err := <-done:
		t.Fatalf("the first payment's transaction ended: %v", err)
	}
	sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	err := env.Server.DB.InTx(sctx, func(ctx context.Context, tx db.Tx) error {
		return resolvers.AddStats(ctx, tx, second, 500, &month)
	})
	cancel()
	close(release)
	require.NoError(t, err, "the second payment waited on the first's shard")
	require.NoError(t, <-done)

	stats := env.Get("/v1/account", acc.Key).JSON(t)["stats"].(map[string]any)
	require.Equal(t, float64(1200), stats["total_revenue"], "%v", stats)
	require.Equal(t, float64(2), stats["total_orders"], "%v", stats)
}
