package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// A release frees only the claim it names by its stamp: a request whose
// claim's answer was lost (a failover) releases what it may have claimed,
// never another request's claim of the key.
func TestReleaseIdempotencyKeyFreesOnlyItsOwnClaim(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := open(t, testkit.DatabaseURL)
	scope, key, fp := "acct_"+testkit.Unique(), "key-"+testkit.Unique(), []byte("fingerprint")

	first := time.Now()
	state, _, err := d.ClaimIdempotencyKey(ctx, scope, key, fp, first)
	require.NoError(t, err)
	require.Equal(t, db.IdemClaimed, state)

	// Another request's release (its own claim never committed) leaves
	// the first claim in progress.
	require.NoError(t, d.ReleaseIdempotencyKey(ctx, scope, key, first.Add(time.Millisecond)))
	state, _, err = d.ClaimIdempotencyKey(ctx, scope, key, fp, time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemInFlight, state)

	// The first request's release frees the key for the client's retry.
	require.NoError(t, d.ReleaseIdempotencyKey(ctx, scope, key, first))
	state, _, err = d.ClaimIdempotencyKey(ctx, scope, key, fp, time.Now())
	require.NoError(t, err)
	require.Equal(t, db.IdemClaimed, state)
}
