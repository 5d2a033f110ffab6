package resolvers

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"commerce/db"
)

// The authentication cache keeps recently verified API keys in memory so an
// authenticated request costs no PostgreSQL round trip for its key.
//
// It stays correct under revocation by invalidation, not by waiting for a
// TTL:
//   - a revocation or account deletion made through this process invalidates
//     its entries at once (Resolver.forgetKey / forgetAccount), so the very next
//     request is checked against the database;
//   - every other change to api_keys or accounts (another instance, an
//     operator's SQL) fires a trigger that NOTIFYs authInvalidateChannel, and
//     the listener started by ListenAuthInvalidations drops the entries;
//   - because that notification is asynchronous, a revocation made through
//     the API also writes a revocation marker to Redis before it returns
//     (markRevoked, ratelimit/revoke.go), and an entry served from here is
//     used only once its markers are read (auth.go: ConfirmKey, SettleKey;
//     REST reads them in its rate limit's round trip), or, when Redis cannot
//     say, once PostgreSQL confirms the key;
//   - the cache serves only while that listener is connected: when it is
//     not, every lookup goes to the database, and on reconnection the cache
//     starts empty;
//   - a generation counter, bumped by every invalidation, keeps a lookup
//     that raced an invalidation from storing what it read before it;
//   - an entry lives at most authCacheTTL, and key expiry is checked on every
//     use.
//
// Unknown keys are never cached: a wrong key always costs a query.
const (
	authInvalidateChannel = "commerce_auth_invalidate"
	authCacheTTL          = time.Minute
	authCacheMax          = 50_000
)

type authEntry struct {
	p         Principal
	expiresAt *time.Time
	lastUsed  *time.Time
	stored    time.Time
}

type authCache struct {
	mu      sync.RWMutex
	entries map[[32]byte]*authEntry
	gen     atomic.Uint64
	live    atomic.Bool // the invalidation listener is connected
}

func newAuthCache() *authCache {
	return &authCache{entries: make(map[[32]byte]*authEntry)}
}

func (c *authCache) get(h [32]byte, now time.Time) (*authEntry, bool) {
	if !c.live.Load() {
		return nil, false
	}
	c.mu.RLock()
	e, ok := c.entries[h]
	c.mu.RUnlock()
	if !ok || now.Sub(e.stored) >= authCacheTTL {
		return nil, false
	}
	return e, true
}

// put stores an entry read while the generation was gen; it is dropped when
// an invalidation happened since.
func (c *authCache) put(h [32]byte, e *authEntry, gen uint64) {
	if !c.live.Load() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen.Load() != gen {
		return
	}
	if len(c.entries) >= authCacheMax {
		for k := range c.entries { // evict an arbitrary entry
			delete(c.entries, k)
			break
		}
	}
	c.entries[h] = e
}

// touched records a last_used_at write on the cached entry.
func (c *authCache) touched(h [32]byte, at time.Time) {
	c.mu.Lock()
	if e, ok := c.entries[h]; ok {
		cp := *e
		cp.lastUsed = &at
		c.entries[h] = &cp
	}
	c.mu.Unlock()
}

// invalidate drops the entries matching: "key:<id>", "account:<id>" or "*".
func (c *authCache) invalidate(what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	kind, id, _ := strings.Cut(what, ":")
	for h, e := range c.entries {
		if kind == "*" || kind == "key" && e.p.KeyID == id || kind == "account" && e.p.AccountID == id {
			delete(c.entries, h)
		}
	}
}

// setLive turns serving from the cache on or off; either way it starts empty.
func (c *authCache) setLive(live bool) {
	c.live.Store(live)
	c.invalidate("*")
}

// ListenAuthInvalidations keeps the authentication cache in step with the
// database until ctx ends: it listens for the invalidations the api_keys
// and accounts triggers send (on the process's listening connection,
// db.DB.Listen, which reconnects), and serves the cache only while that
// connection is up.
func (r *Resolver) ListenAuthInvalidations(ctx context.Context) {
	r.DB.Listen(ctx, authInvalidateChannel, db.Handler{
		Listening: func() { r.auth.setLive(true) },
		Notify:    r.auth.invalidate,
		Lost: func(err error) {
			r.auth.setLive(false)
			r.Log.Warn("authentication cache listener stopped; keys are checked in the database until it reconnects", "error", err)
		},
	})
	r.auth.setLive(false)
}

// forgetKey invalidates at once in this process; other processes learn of
// the change through the revocation markers and the triggers' notifications.
func (r *Resolver) forgetKey(id string) { r.auth.invalidate("key:" + id) }

// AuthCacheServing reports whether verified keys are served from memory (the
// invalidation listener is connected).
func (r *Resolver) AuthCacheServing() bool { return r.auth.live.Load() }

// forgetAccount drops every cached key of an account in this process.
func (r *Resolver) forgetAccount(id string) { r.auth.invalidate("account:" + id) }
