package resolvers

import (
	"crypto/sha256"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestAuthCache(t *testing.T) {
	t.Parallel()
	c := newAuthCache()
	now := time.Now()
	h1, h2 := sha256.Sum256([]byte("a")), sha256.Sum256([]byte("b"))
	e1 := &authEntry{p: Principal{KeyID: "key_1", AccountID: "acct_1"}, stored: now}
	e2 := &authEntry{p: Principal{KeyID: "key_2", AccountID: "acct_2"}, stored: now}

	// Not serving until the listener is connected.
	c.put(h1, e1, c.gen.Load())
	_, ok := c.get(h1, now)
	require.False(t, ok)

	c.setLive(true)
	c.put(h1, e1, c.gen.Load())
	c.put(h2, e2, c.gen.Load())
	got, ok := c.get(h1, now)
	require.True(t, ok)
	require.Equal(t, "key_1", got.p.KeyID)
	_, ok = c.get(h1, now.Add(authCacheTTL))
	require.False(t, ok, "expired by TTL")

	// A lookup that raced an invalidation does not store what it read.
	gen := c.gen.Load()
	c.invalidate("key:key_1")
	_, ok = c.get(h1, now)
	require.False(t, ok)
	c.put(h1, e1, gen)
	_, ok = c.get(h1, now)
	require.False(t, ok, "stale fill dropped")
	_, ok = c.get(h2, now)
	require.True(t, ok, "other keys stay")

	c.invalidate("account:acct_2")
	_, ok = c.get(h2, now)
	require.False(t, ok)

	// Losing the listener empties the cache and stops serving from it.
	c.put(h2, e2, c.gen.Load())
	c.setLive(false)
	c.live.Store(true)
	_, ok = c.get(h2, now)
	require.False(t, ok, "emptied")
}
