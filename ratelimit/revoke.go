package ratelimit

import (
	"context"
	"fmt"
	"time"
)

// Revocation markers make a revoked API key, or a deleted account, fail on
// every process at its very next request, although each process keeps
// verified keys in memory (resolvers/authcache.go):
//
//   - the revocation writes a marker before it returns (MarkRevoked);
//   - a request served from the memory cache asks whether a marker exists,
//     in the Redis round trip it makes anyway for its rate limit (CheckKey
//     pipelines the EXISTS with the window script), or alone (Revoked) on a
//     route that charges no group.
//
// A marker lives MarkerTTL, longer than an entry of the authentication
// cache: by the time it expires no process can hold the key in memory (the
// database refuses it from then on). The markers of one account share a
// Redis Cluster hash slot, so one EXISTS reads both.
const MarkerTTL = 2 * time.Minute

// markerKeys names the markers consulted for a key of an account: the
// account's (deleted) and the key's (revoked).
func (l *Limiter) markerKeys(accountID, keyID string) (account, key string) {
	tag := l.prefix + "rv:{" + accountID + "}:"
	return tag + "account", tag + "key:" + keyID
}

// MarkRevoked records that the keys (or, with none given, the whole
// account) stop working now. It is written before the revocation returns;
// an error means other processes learn of it through the authentication
// cache's invalidation (a NOTIFY, milliseconds later) instead.
func (l *Limiter) MarkRevoked(ctx context.Context, accountID string, keyIDs ...string) error {
	pipe := l.client.Pipeline()
	if len(keyIDs) == 0 {
		a, _ := l.markerKeys(accountID, "")
		pipe.Set(ctx, a, "1", MarkerTTL)
	}
	for _, id := range keyIDs {
		_, k := l.markerKeys(accountID, id)
		pipe.Set(ctx, k, "1", MarkerTTL)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("ratelimit: write revocation marker: %w", err)
	}
	return nil
}

// Revoked reports whether a marker says the key or its account was revoked.
// An error means Redis could not say (the caller decides; the service then
// checks the key in PostgreSQL).
func (l *Limiter) Revoked(ctx context.Context, accountID, keyID string) (bool, error) {
	r := l.Run(ctx, Batch{AccountID: accountID, KeyID: keyID})
	return r.Revoked, r.MarkerErr
}

// KeyCheck is the outcome of CheckKey.
type KeyCheck struct {
	Result
	// Revoked is set when a marker says the key or its account was revoked
	// (the request is then not allowed, whatever Result says).
	Revoked bool
	// MarkerErr is set when the markers could not be read; Result is then
	// the limit's own outcome, or an allowing Result with the error.
	MarkerErr error
}

// CheckKey is Check for a request authenticated by keyID of accountID: in
// the same Redis round trip (a pipeline), it also asks whether a revocation
// marker exists. The error is the limit's, as Check returns it (fail open).
func (l *Limiter) CheckKey(ctx context.Context, g Group, subject, accountID, keyID string) (KeyCheck, error) {
	r := l.Run(ctx, Batch{AccountID: accountID, KeyID: keyID, Checks: []Checking{{Group: g, Subject: subject}}})
	return KeyCheck{Result: r.Checks[0], Revoked: r.Revoked, MarkerErr: r.MarkerErr}, r.CheckErrs[0]
}
