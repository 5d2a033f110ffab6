package ratelimit_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/ratelimit"
	"commerce/server"
	"commerce/testkit"
)

// On a Redis Cluster of three masters, reached through the service's own
// REDIS_URL parsing (server.OpenRedis), every operation works as on one
// node: the window (with CheckKey's revocation markers in the same
// pipeline, across slots), the budget, the slots, the markers. Subjects
// spread over every master, so the scripts' keys are proven to share a slot
// per subject (a cross-slot script fails with CROSSSLOT), and the scripts
// are loaded again on each master (NOSCRIPT) after a flush.
func TestOnRedisCluster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cluster := testkit.RedisCluster(t)
	rc, err := server.OpenRedis(cluster.URL)
	require.NoError(t, err)
	t.Cleanup(func() { _ = rc.Close() })
	cc, ok := rc.(*redis.ClusterClient)
	require.True(t, ok, "a URL with addr= parameters is a cluster, got %T", rc)
	p := prefix()
	l := ratelimit.New(rc, p)
	g := group(3, time.Minute)

	const subjects = 24
	for i := range subjects {
		acct, key := "acct_"+strconv.Itoa(i), "k"+strconv.Itoa(i)
		for n := 1; n <= 4; n++ {
			kc, err := l.CheckKey(ctx, g, "key:"+key, acct, key)
			require.NoError(t, err, "subject %d, request %d", i, n)
			require.NoError(t, kc.MarkerErr)
			require.False(t, kc.Revoked)
			require.Equal(t, n <= 3, kc.Allowed, "subject %d, request %d", i, n)
		}
		require.NoError(t, l.MarkRevoked(ctx, acct, key))
		kc, err := l.CheckKey(ctx, g, "key:"+key, acct, key)
		require.NoError(t, err)
		require.True(t, kc.Revoked, "subject %d", i)
		revoked, err := l.Revoked(ctx, acct, "other")
		require.NoError(t, err)
		require.False(t, revoked)

		res, err := l.Spend(ctx, "graphql", acct, 600, ratelimit.Rule{Limit: 1000, Window: time.Minute})
		require.NoError(t, err)
		require.True(t, res.Allowed)
		res, err = l.Spend(ctx, "graphql", acct, 600, ratelimit.Rule{Limit: 1000, Window: time.Minute})
		require.NoError(t, err)
		require.False(t, res.Allowed, "the budget of subject %d is spent", i)

		s, ok, err := l.Acquire(ctx, "exports", acct, 1, time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		_, ok, err = l.Acquire(ctx, "exports", acct, 1, time.Minute)
		require.NoError(t, err)
		require.False(t, ok, "one slot")
		require.NoError(t, s.Release(ctx))
	}

	// Every master holds some of the keys.
	var mu sync.Mutex
	var holders int
	require.NoError(t, cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		keys, err := node.Keys(ctx, p+"*").Result()
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if len(keys) > 0 {
			holders++
		}
		return nil
	}))
	require.Equal(t, 3, holders, "the subjects' keys spread over the three masters")

	// The scripts, flushed on every master, are loaded again where needed.
	require.NoError(t, cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		return node.ScriptFlush(ctx).Err()
	}))
	kc, err := l.CheckKey(ctx, g, "key:fresh", "acct_fresh", "fresh")
	require.NoError(t, err)
	require.NoError(t, kc.MarkerErr)
	require.True(t, kc.Allowed)
	res, err := l.Spend(ctx, "graphql", "acct_fresh", 1, ratelimit.Rule{Limit: 10, Window: time.Minute})
	require.NoError(t, err)
	require.True(t, res.Allowed)

	// The cluster gone: the limits fail open, the markers report an error.
	cluster.Stop()
	start := time.Now()
	kc, err = ratelimit.New(rc, p).CheckKey(ctx, g, "key:k0", "acct_0", "k0")
	// It fails at once rather than holding the request through go-redis's
	// dial retries and redirects (3.4 s with its defaults; 26 ms here).
	require.Less(t, time.Since(start), time.Second)
	require.Error(t, err)
	require.Error(t, kc.MarkerErr)
	require.True(t, kc.Allowed, "the limit fails open")
	require.False(t, strings.Contains(err.Error(), "CROSSSLOT"))
}
