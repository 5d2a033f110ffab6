package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/ratelimit"
)

// CheckKey reads the markers and charges the window in one pipeline; a key
// marker and an account marker both count, for MarkerTTL.
func TestRevocationMarkers(t *testing.T) {
	ctx := context.Background()
	p := prefix()
	l := ratelimit.New(client, p)
	g := group(3, time.Minute)

	// The script unknown to the server (NOSCRIPT in the pipeline) still
	// charges, and the markers are read.
	require.NoError(t, client.ScriptFlush(ctx).Err())
	kc, err := l.CheckKey(ctx, g, "key:k1", "acct_1", "k1")
	require.NoError(t, err)
	require.NoError(t, kc.MarkerErr)
	require.False(t, kc.Revoked)
	require.True(t, kc.Allowed)
	require.Equal(t, 2, kc.Remaining)

	require.NoError(t, l.MarkRevoked(ctx, "acct_1", "k1"))
	kc, err = l.CheckKey(ctx, g, "key:k1", "acct_1", "k1")
	require.NoError(t, err)
	require.True(t, kc.Revoked)
	require.Equal(t, 1, kc.Remaining, "the limit is still answered")
	revoked, err := l.Revoked(ctx, "acct_1", "k1")
	require.NoError(t, err)
	require.True(t, revoked)
	revoked, err = l.Revoked(ctx, "acct_1", "k2")
	require.NoError(t, err)
	require.False(t, revoked, "another key of the account")

	// An account marker revokes every key of the account.
	require.NoError(t, l.MarkRevoked(ctx, "acct_1"))
	revoked, err = l.Revoked(ctx, "acct_1", "k2")
	require.NoError(t, err)
	require.True(t, revoked)
	revoked, err = l.Revoked(ctx, "acct_2", "k3")
	require.NoError(t, err)
	require.False(t, revoked, "another account")

	ttl, err := client.PTTL(ctx, p+"rv:{acct_1}:account").Result()
	require.NoError(t, err)
	require.Greater(t, ttl, time.Minute, "longer than the authentication cache keeps an entry")
	require.LessOrEqual(t, ttl, ratelimit.MarkerTTL)
}

// With Redis unreachable the markers cannot be read: an error, never "not
// revoked" without one.
func TestRevocationMarkersRedisDown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := ratelimit.New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1}), prefix())
	kc, err := l.CheckKey(ctx, group(3, time.Minute), "key:k", "acct", "k")
	require.Error(t, err)
	require.Error(t, kc.MarkerErr)
	require.True(t, kc.Allowed, "the limit fails open")
	_, err = l.Revoked(ctx, "acct", "k")
	require.Error(t, err)
	require.Error(t, l.MarkRevoked(ctx, "acct", "k"))
}
