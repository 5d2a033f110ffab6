package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/ratelimit"
)

// Run asks for the markers, a spend and several checks in one round trip,
// in order (two checks of one group count two requests), with the results
// each method alone would give; Undo takes the checks' requests back.
func TestBatchOneRoundTripAndUndo(t *testing.T) {
	ctx := context.Background()
	c := redis.NewClient(client.Options())
	defer c.Close()
	hook := &ratelimit.RoundTrips{}
	c.AddHook(hook)
	l := ratelimit.New(c, prefix())
	g := group(3, time.Minute)
	other := ratelimit.Group{Name: "other", Rules: []ratelimit.Rule{{Limit: 10, Window: time.Minute}}}
	rule := ratelimit.Rule{Limit: 100, Window: time.Minute}
	require.NoError(t, l.MarkRevoked(ctx, "acct_1", "key_1"))
	// Load the scripts (a NOSCRIPT retry is a round trip of its own).
	l.Run(ctx, ratelimit.Batch{Spend: &ratelimit.Spending{Name: "warm", Subject: "s", Cost: 1, Rule: rule},
		Checks: []ratelimit.Checking{{Group: other, Subject: "warm"}}})

	before := hook.Count()
	r := l.Run(ctx, ratelimit.Batch{AccountID: "acct_1", KeyID: "key_1",
		Spend:  &ratelimit.Spending{Name: "cost", Subject: "key:a", Cost: 60, Rule: rule},
		Checks: []ratelimit.Checking{{Group: g, Subject: "key:a"}, {Group: g, Subject: "key:a"}, {Group: other, Subject: "key:a"}}})
	require.Equal(t, int64(1), hook.Count()-before, "round trips")
	require.True(t, r.Revoked)
	require.NoError(t, r.MarkerErr)
	require.NoError(t, r.SpendErr)
	require.True(t, r.Spend.Allowed)
	require.Equal(t, 40, r.Spend.Remaining)
	require.Len(t, r.Checks, 3)
	for i, want := range []int{2, 1, 9} {
		require.NoError(t, r.CheckErrs[i])
		require.True(t, r.Checks[i].Allowed, "check %d", i)
		require.Equal(t, want, r.Checks[i].Remaining, "check %d", i)
	}

	// A spend that does not fit; the checks ran beside it, and are taken back.
	r = l.Run(ctx, ratelimit.Batch{Spend: &ratelimit.Spending{Name: "cost", Subject: "key:a", Cost: 50, Rule: rule},
		Checks: []ratelimit.Checking{{Group: g, Subject: "key:a"}, {Group: g, Subject: "key:a"}}})
	require.False(t, r.Spend.Allowed)
	require.Equal(t, 40, r.Spend.Remaining, "a refused spend is not recorded")
	require.True(t, r.Checks[0].Allowed)
	require.False(t, r.Checks[1].Allowed, "the group's third request, then its fourth")
	require.NoError(t, l.Undo(ctx, r))
	res, err := l.Check(ctx, g, "key:a")
	require.NoError(t, err)
	require.True(t, res.Allowed)
	require.Equal(t, 0, res.Remaining, "the window holds the first batch's two and this one")

	// A bad group fails alone (allowed, with its error); the rest answer.
	r = l.Run(ctx, ratelimit.Batch{Checks: []ratelimit.Checking{{Group: ratelimit.Group{Name: "none"}, Subject: "x"}, {Group: other, Subject: "key:a"}}})
	require.Error(t, r.CheckErrs[0])
	require.True(t, r.Checks[0].Allowed)
	require.NoError(t, r.CheckErrs[1])
	require.Equal(t, 8, r.Checks[1].Remaining)
}
