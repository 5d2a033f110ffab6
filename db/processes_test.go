package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// beating opens a DB handle whose process heartbeat runs until the test
// ends (or stop is called), and waits for its first beat.
func beating(t *testing.T) (d *db.DB, stop func()) {
	t.Helper()
	d = open(t, testkit.DatabaseURL)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Heartbeat(ctx, testkit.Logger()) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	require.Eventually(t, func() bool {
		var n int
		require.NoError(t, d.Pool.QueryRow(ctx, `SELECT count(*) FROM service_processes WHERE id = $1`, d.ProcessID()).Scan(&n))
		return n == 1
	}, 5*time.Second, 10*time.Millisecond)
	return d, stop
}

// A request in flight on a live process keeps its Idempotency-Key: the
// retry is told to wait. Once that process is dead (its heartbeat gone),
// the retry takes the key over at once, well before the claim is stale.
func TestIdempotencyClaimOfADeadProcessIsTakenOver(t *testing.T) {
	ctx := context.Background()
	first, stopFirst := beating(t)
	second, _ := beating(t)
	scope, key, fp := "acct_"+testkit.Unique(), "k-"+testkit.Unique(), []byte("fingerprint")

	st, _, err := first.ClaimIdempotencyKey(ctx, scope, key, fp, time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemClaimed, st)

	st, _, err = second.ClaimIdempotencyKey(ctx, scope, key, fp, time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemInFlight, st, "its process is alive: the request may still finish")

	stopFirst() // a clean stop deletes the row; a kill -9 leaves it to go stale
	st, _, err = second.ClaimIdempotencyKey(ctx, scope, key, fp, time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemClaimed, st, "its process is gone: the retry takes the key over")

	// A different request with the key is still a mismatch.
	st, _, err = first.ClaimIdempotencyKey(ctx, scope, key, []byte("another"), time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemMismatch, st)
}

// A process whose row was not renewed for ProcessGone counts as dead; a
// claim with no owner (a process without a heartbeat) waits for the
// staleness rule, however long its process has been gone.
func TestIdempotencyClaimOwnerStaleOrUnknown(t *testing.T) {
	ctx := context.Background()
	d, _ := beating(t)
	scope, fp := "acct_"+testkit.Unique(), []byte("fingerprint")

	// Claimed by a process last seen 11 s ago (killed: no delete).
	_, err := d.Pool.Exec(ctx, `INSERT INTO service_processes (id, seen_at) VALUES ('dead-'||$1, now() - interval '11 seconds')`, scope)
	require.NoError(t, err)
	_, err = d.Pool.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, locked_at, expires_at, owner)
		VALUES ($1, 'a', $2, now(), now() + interval '1 day', 'dead-'||$1)`, scope, fp)
	require.NoError(t, err)
	st, _, err := d.ClaimIdempotencyKey(ctx, scope, "a", fp, time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemClaimed, st)

	// Seen 3 s ago: alive.
	_, err = d.Pool.Exec(ctx, `INSERT INTO service_processes (id, seen_at) VALUES ('busy-'||$1, now() - interval '3 seconds')`, scope)
	require.NoError(t, err)
	_, err = d.Pool.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, locked_at, expires_at, owner)
		VALUES ($1, 'b', $2, now(), now() + interval '1 day', 'busy-'||$1)`, scope, fp)
	require.NoError(t, err)
	st, _, err = d.ClaimIdempotencyKey(ctx, scope, "b", fp, time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemInFlight, st)

	// No owner: only the 5-minute staleness frees it.
	_, err = d.Pool.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, fingerprint, locked_at, expires_at)
		VALUES ($1, 'c', $2, now() - interval '1 minute', now() + interval '1 day')`, scope, fp)
	require.NoError(t, err)
	st, _, err = d.ClaimIdempotencyKey(ctx, scope, "c", fp, time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemInFlight, st)
}
