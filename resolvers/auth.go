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
func newKeySecret() string {
	b := make([]byte, 0, len(keyPrefix)+keyBodyLen)
	b = append(b, keyPrefix...)
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

func wellFormedKey(key string) bool {
	if len(key) != len(keyPrefix)+keyBodyLen || key[:len(keyPrefix)] != keyPrefix {
		return false
	}
	for i := len(keyPrefix); i < len(key); i++ {
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
// A verified key is served from the authentication cache (authcache.go).
func (r *Resolver) Authenticate(ctx context.Context, key string) (Principal, error) {
	if !wellFormedKey(key) {
		return Principal{}, problem.New(problem.AuthenticationError, "The API key is malformed: keys look like svc_ followed by 40 letters and digits.")
	}
	h := sha256.Sum256([]byte(key))
	now := r.Now()
	e, ok := r.auth.get(h, now)
	if !ok {
		gen := r.auth.gen.Load()
		var revokedAt *time.Time
		e = &authEntry{stored: now}
		err := r.DB.Pool.QueryRow(ctx, authQuery, h[:]).Scan(&e.p.KeyID, &e.p.AccountID, &e.p.Scope, &e.expiresAt, &revokedAt, &e.lastUsed)
		if errors.Is(err, pgx.ErrNoRows) {
			return Principal{}, problem.New(problem.AuthenticationError, "The API key is not valid.")
		}
		if err != nil {
			return Principal{}, err
		}
		if revokedAt != nil {
			return Principal{}, problem.New(problem.AuthenticationError, "The API key was revoked.")
		}
		r.auth.put(h, e, gen)
	}
	if e.expiresAt != nil && !now.Before(*e.expiresAt) {
		return Principal{}, problem.New(problem.AuthenticationError, "The API key has expired.")
	}
	if e.lastUsed == nil || now.Sub(*e.lastUsed) >= lastUsedGranularity {
		r.auth.touched(h, now)
		r.touchKey(e.p.KeyID)
	}
	return e.p, nil
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
