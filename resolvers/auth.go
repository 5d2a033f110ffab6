package resolvers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"commerce/problem"
)

const (
	keyPrefix     = "svc_"
	keyBodyLen    = 40
	keyShownChars = 12
	base62        = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// lastUsedGranularity bounds last_used_at writes to one a minute per key.
	lastUsedGranularity = time.Minute
)

// newKeySecret returns a fresh svc_ key: 40 base62 characters from crypto/rand.
func newKeySecret() string { return newToken(keyPrefix) }

// newToken returns prefix and 40 base62 characters from crypto/rand: an API
// key (svc_) or an agent connection's token (acp_).
func newToken(prefix string) string {
	b := make([]byte, 0, len(prefix)+keyBodyLen)
	b = append(b, prefix...)
	var buf [64]byte
	for len(b) < cap(b) {
		_, _ = rand.Read(buf[:])
		for _, c := range buf {
			// 248 = 4×62: rejecting larger bytes keeps the characters uniform.
			if c < 248 && len(b) < cap(b) {
				b = append(b, base62[c%62])
			}
		}
	}
	return string(b)
}

// hashKey is what is stored of a key: its SHA-256.
func hashKey(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

func wellFormedKey(key string) bool { return wellFormedToken(key, keyPrefix) }

// wellFormedToken reports whether key is prefix and 40 letters and digits.
func wellFormedToken(key, prefix string) bool {
	if len(key) != len(prefix)+keyBodyLen || key[:len(prefix)] != prefix {
		return false
	}
	for i := len(prefix); i < len(key); i++ {
		c := key[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// authQuery finds a key by its hash, with its live account. It runs on the
// pgx pool directly: it is on every authenticated request's path.
const authQuery = `
SELECT k.id, k.account_id, k.scope, k.expires_at, k.revoked_at, k.last_used_at
FROM api_keys k
JOIN accounts a ON a.id = k.account_id AND a.deleted_at IS NULL
WHERE k.key_hash = $1`

// Authenticate resolves an API key to its caller. Errors: authentication_error
// when the key is malformed, unknown, revoked, expired, or its account deleted.
// A verified key is served from the authentication cache (authcache.go) once
// the revocation markers confirm it (ConfirmKey: one Redis round trip).
func (r *Resolver) Authenticate(ctx context.Context, key string) (Principal, error) {
	p, pending, err := r.AuthenticateCached(ctx, key)
	if err != nil || !pending {
		return p, err
	}
	if err := r.ConfirmKey(ctx, p); err != nil {
		return Principal{}, err
	}
	return p, nil
}

// AuthenticateCached is Authenticate without the revocation markers: when
// pending is set, p came from this process's memory and must not be used
// before ConfirmKey or SettleKey accepts it (REST reads the markers in the
// round trip of its rate limit). A key read from the database is never
// pending: the database is the truth.
func (r *Resolver) AuthenticateCached(ctx context.Context, key string) (p Principal, pending bool, err error) {
	if !wellFormedKey(key) {
		return Principal{}, false, problem.New(problem.AuthenticationError, "The API key is malformed: keys look like svc_ followed by 40 letters and digits.")
	}
	h := sha256.Sum256([]byte(key))
	now := r.Now()
	e, cached := r.auth.get(h, now)
	if !cached {
		gen := r.auth.gen.Load()
		var revokedAt *time.Time
		e = &authEntry{stored: now}
		err := r.DB.Pool.QueryRow(ctx, authQuery, h[:]).Scan(&e.p.KeyID, &e.p.AccountID, &e.p.Scope, &e.expiresAt, &revokedAt, &e.lastUsed)
		if errors.Is(err, pgx.ErrNoRows) {
			return Principal{}, false, problem.New(problem.AuthenticationError, "The API key is not valid.")
		}
		if err != nil {
			return Principal{}, false, err
		}
		if revokedAt != nil {
			return Principal{}, false, problem.New(problem.AuthenticationError, "The API key was revoked.")
		}
		r.auth.put(h, e, gen)
	}
	if e.expiresAt != nil && !now.Before(*e.expiresAt) {
		return Principal{}, false, problem.New(problem.AuthenticationError, "The API key has expired.")
	}
	if e.lastUsed == nil || now.Sub(*e.lastUsed) >= lastUsedGranularity {
		r.auth.touched(h, now)
		r.touchKey(e.p.KeyID)
	}
	return e.p, cached, nil
}

// errNoMarkers stands for unreadable markers when the resolver has no Limiter.
var errNoMarkers = errors.New("no revocation markers")

// ConfirmKey reads the revocation markers of a key served from memory (one
// Redis round trip) and settles it (SettleKey).
func (r *Resolver) ConfirmKey(ctx context.Context, p Principal) error {
	if r.Limiter == nil {
		return r.SettleKey(ctx, p, false, errNoMarkers)
	}
	revoked, err := r.Limiter.Revoked(ctx, p.AccountID, p.KeyID)
	return r.SettleKey(ctx, p, revoked, err)
}

// SettleKey decides whether a key served from memory may be used, given
// what its revocation markers said: revoked (the key or its account; the
// key is refused and dropped from memory) or markerErr (Redis could not
// say: the key is checked in PostgreSQL instead, so revocation stays
// immediate while Redis is down, at one query per request).
func (r *Resolver) SettleKey(ctx context.Context, p Principal, revoked bool, markerErr error) error {
	if markerErr != nil {
		return r.keyInDatabase(ctx, p)
	}
	if revoked {
		r.forgetKey(p.KeyID)
		return problem.New(problem.AuthenticationError, "The API key was revoked.")
	}
	return nil
}

// keyInDatabase checks a key that memory vouches for against the database.
func (r *Resolver) keyInDatabase(ctx context.Context, p Principal) error {
	var revokedAt *time.Time
	err := r.DB.Pool.QueryRow(ctx, `SELECT k.revoked_at FROM api_keys k
		JOIN accounts a ON a.id = k.account_id AND a.deleted_at IS NULL WHERE k.id = $1`, p.KeyID).Scan(&revokedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		r.forgetKey(p.KeyID)
		return problem.New(problem.AuthenticationError, "The API key is not valid.")
	}
	if err != nil {
		return err
	}
	if revokedAt != nil {
		r.forgetKey(p.KeyID)
		return problem.New(problem.AuthenticationError, "The API key was revoked.")
	}
	return nil
}

// markRevoked writes the revocation markers of keyIDs (none: the whole
// account) before a revocation returns, so every process refuses them on
// their next request. A failure is logged: the revocation stands in the
// database, and other processes learn of it through the cache's
// invalidation (a NOTIFY, milliseconds later).
func (r *Resolver) markRevoked(ctx context.Context, accountID string, keyIDs ...string) {
	if r.Limiter == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := r.Limiter.MarkRevoked(ctx, accountID, keyIDs...); err != nil {
		r.Log.Warn("revocation marker not written; other processes rely on the cache invalidation", "account_id", accountID, "key_ids", keyIDs, "error", err)
	}
}

// touchKey records the use of a key off the request path. The conditional
// update keeps concurrent requests from writing more than once a minute.
func (r *Resolver) touchKey(id string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := r.DB.Pool.Exec(ctx, `UPDATE api_keys SET last_used_at = now()
			WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, id)
		if err != nil {
			r.Log.Warn("record API key use", "key_id", id, "error", err)
		}
	}()
}
