package ratelimit_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/ratelimit"
)

var client *redis.Client

func TestMain(m *testing.M) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		fmt.Fprintln(os.Stderr, "FAIL: REDIS_URL is not set; run make test")
		os.Exit(1)
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: REDIS_URL:", err)
		os.Exit(1)
	}
	opts.PoolSize = 64
	client = redis.NewClient(opts)
	os.Exit(m.Run())
}

// prefix returns a random key prefix, so tests never share keys.
func prefix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "test:" + hex.EncodeToString(b[:]) + ":"
}

func newLimiter(opts ...ratelimit.Option) *ratelimit.Limiter {
	return ratelimit.New(client, prefix(), opts...)
}

func group(limit int, window time.Duration) ratelimit.Group {
	return ratelimit.Group{Name: "g", Rules: []ratelimit.Rule{{Limit: limit, Window: window}}}
}

func TestExactlyNThenRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiter()
	for i := 1; i <= 120; i++ {
		r, err := l.Allow(ctx, "default", "key:a")
		require.NoError(t, err)
		require.True(t, r.Allowed, "request %d", i)
		require.Equal(t, 120, r.Limit)
		require.Equal(t, 120-i, r.Remaining)
		require.Greater(t, r.Reset, 59*time.Second)
	}
	r, err := l.Allow(ctx, "default", "key:a")
	require.NoError(t, err)
	require.False(t, r.Allowed)
	require.Zero(t, r.Remaining)
	require.Greater(t, r.RetryAfter, 58*time.Second)
	require.LessOrEqual(t, r.RetryAfter, time.Minute)

	// Other subjects are independent.
	r, err = l.Allow(ctx, "default", "key:b")
	require.NoError(t, err)
	require.True(t, r.Allowed)
}

// The window rolls: a full window refuses until its oldest request leaves,
// then admits exactly as many as left (not a refill to full).
func TestRollingWindow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiter()
	g := group(3, 2*time.Second)
	for i := 0; i < 2; i++ {
		r, err := l.Check(ctx, g, "s")
		require.NoError(t, err)
		require.True(t, r.Allowed)
	}
	time.Sleep(time.Second)
	r, err := l.Check(ctx, g, "s") // third, one second later
	require.NoError(t, err)
	require.True(t, r.Allowed)

	r, err = l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.False(t, r.Allowed)
	require.LessOrEqual(t, r.RetryAfter, time.Second+50*time.Millisecond, "room appears when the first two leave")

	// 1.2 s later the first two have left, the third has not: exactly two more fit.
	time.Sleep(1200 * time.Millisecond)
	for i := 0; i < 2; i++ {
		r, err = l.Check(ctx, g, "s")
		require.NoError(t, err)
		require.True(t, r.Allowed, "slot %d", i)
	}
	r, err = l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.False(t, r.Allowed, "the third request is still inside the window")
}

// Full at t0, a request one second in is still refused (a token bucket would
// have refilled half of it by then); once the window has passed, the full
// limit is available again.
func TestNotARefill(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiter()
	g := group(3, 2*time.Second)
	for i := 0; i < 3; i++ {
		r, err := l.Check(ctx, g, "s")
		require.NoError(t, err)
		require.True(t, r.Allowed)
	}
	time.Sleep(time.Second)
	r, err := l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.False(t, r.Allowed, "one second into a full two-second window")
	require.Greater(t, r.RetryAfter, 500*time.Millisecond)
	require.LessOrEqual(t, r.RetryAfter, time.Second)

	time.Sleep(r.RetryAfter + 50*time.Millisecond)
	for i := 0; i < 3; i++ {
		r, err = l.Check(ctx, g, "s")
		require.NoError(t, err)
		require.True(t, r.Allowed, "request %d after the window passed", i)
	}
	r, err = l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.False(t, r.Allowed)
}

// A refused request is not recorded: hammering a full window does not push it out.
func TestRefusedRequestsAreNotRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiter()
	g := group(2, time.Second)
	for i := 0; i < 2; i++ {
		_, err := l.Check(ctx, g, "s")
		require.NoError(t, err)
	}
	for i := 0; i < 20; i++ {
		r, err := l.Check(ctx, g, "s")
		require.NoError(t, err)
		require.False(t, r.Allowed)
		time.Sleep(40 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	r, err := l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.True(t, r.Allowed, "the window freed one second after the allowed requests")
}

// With several rules, every one must allow, and the binding one is reported.
func TestMultipleRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiter()
	g := ratelimit.Group{Name: "multi", Rules: []ratelimit.Rule{{Limit: 5, Window: time.Minute}, {Limit: 2, Window: time.Second}}}
	r, err := l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.True(t, r.Allowed)
	require.Equal(t, 2, r.Limit)
	require.Equal(t, 1, r.Remaining)
	_, err = l.Check(ctx, g, "s")
	require.NoError(t, err)
	r, err = l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.False(t, r.Allowed)
	require.Equal(t, 2, r.Limit)
	require.LessOrEqual(t, r.RetryAfter, time.Second)

	time.Sleep(1100 * time.Millisecond)
	for i := 0; i < 2; i++ {
		r, err = l.Check(ctx, g, "s")
		require.NoError(t, err)
		require.True(t, r.Allowed)
	}
	time.Sleep(1100 * time.Millisecond)
	r, err = l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.True(t, r.Allowed)
	r, err = l.Check(ctx, g, "s")
	require.NoError(t, err)
	require.False(t, r.Allowed, "the per-minute rule (5) binds now")
	require.Equal(t, 5, r.Limit)
	require.Greater(t, r.RetryAfter, 50*time.Second)
}

func TestConcurrentExactness(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiter()
	g := group(50, time.Minute)
	var allowed, failed atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r, err := l.Check(ctx, g, "race")
			switch {
			case err != nil:
				failed.Add(1)
			case r.Allowed:
				allowed.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	require.Zero(t, failed.Load())
	require.EqualValues(t, 50, allowed.Load())
}

func TestScale(t *testing.T) {
	t.Parallel()
	l := newLimiter(ratelimit.Scale(1000))
	r, err := l.Allow(context.Background(), "processor_connect", "s")
	require.NoError(t, err)
	require.Equal(t, 5000, r.Limit)
}

func TestRedisDownFailsOpen(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	down := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	l := ratelimit.New(down, "x:")
	r, err := l.Allow(context.Background(), "default", "s")
	require.Error(t, err)
	require.NotErrorIs(t, err, ratelimit.ErrUnavailable)
	require.True(t, r.Allowed)
	require.Error(t, l.Ping(context.Background()))

	// Right after a failure, checks fail open at once without dialling.
	start := time.Now()
	r, err = l.Allow(context.Background(), "default", "s")
	require.ErrorIs(t, err, ratelimit.ErrUnavailable)
	require.True(t, r.Allowed)
	require.Less(t, time.Since(start), 10*time.Millisecond)
}

// A caller whose context ends (a client hanging up) gets an error but does
// not switch limiting off for the next callers.
func TestCanceledContextDoesNotFailOpenOthers(t *testing.T) {
	t.Parallel()
	l := newLimiter()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := l.Allow(ctx, "default", "s")
	require.ErrorIs(t, err, context.Canceled)
	require.True(t, r.Allowed)

	r, err = l.Allow(context.Background(), "default", "s")
	require.NoError(t, err)
	require.True(t, r.Allowed)
	require.Equal(t, 119, r.Remaining)
}

func TestInvalidGroup(t *testing.T) {
	t.Parallel()
	l := newLimiter()
	for _, g := range []ratelimit.Group{
		{Name: "none"},
		{Name: "zero", Rules: []ratelimit.Rule{{Limit: 0, Window: time.Second}}},
		{Name: "instant", Rules: []ratelimit.Rule{{Limit: 1, Window: time.Microsecond}}},
	} {
		r, err := l.Check(context.Background(), g, "s")
		require.Error(t, err, g.Name)
		require.True(t, r.Allowed, g.Name)
	}
}

func TestUnknownGroup(t *testing.T) {
	t.Parallel()
	r, err := newLimiter().Allow(context.Background(), "no_such_group", "s")
	require.ErrorContains(t, err, "no_such_group")
	require.True(t, r.Allowed)
}

func TestTableHasContractGroups(t *testing.T) {
	t.Parallel()
	want := map[string]ratelimit.Rule{
		"listings": {120, time.Minute}, "orders": {120, time.Minute}, "order_redelivery": {10, time.Hour},
		"order_redelivery_key": {100, time.Hour}, "events": {120, time.Minute}, "account_update": {10, time.Minute},
		"processor_connect": {5, time.Minute}, "files": {60, time.Minute}, "webhooks": {60, time.Minute}, "discounts": {60, time.Minute},
		"bootstrap_email": {5, time.Hour}, "bootstrap_ip": {20, time.Hour}, "public": {300, time.Minute},
		"free_orders":           {5, time.Hour},         // CONTRACT §19: per email and listing
		"discount_tries":        {10, 10 * time.Minute}, // CONTRACT §19: a buyer's code tries per IP
		"licenses":              {60, time.Minute},      // CONTRACT §20: the public license routes per IP
		"license_key":           {20, time.Minute},      // CONTRACT §20: the public license routes per key
		"license_keys":          {120, time.Minute},     // CONTRACT §20: the seller's license-key API
		"memberships":           {120, time.Minute},     // CONTRACT §26: the seller's memberships
		"analytics":             {60, time.Minute},      // CONTRACT §23: sales over time, an aggregate read
		"library_sign_in_email": {5, time.Hour},         // CONTRACT §21: sign-in mails per email
		"library_sign_in_ip":    {20, time.Hour},        // CONTRACT §21: sign-in requests per client IP
		"exports":               {10, time.Minute},      // CONTRACT §23: the CSV exports (docs/decisions.md)
		"agent_connections":     {60, time.Minute},      // CONTRACT §25: the seller's agent connections, as webhooks
		"acp":                   {600, time.Minute},     // CONTRACT §25: requests per agent connection under /acp
		"default":               {120, time.Minute},
	}
	require.Len(t, ratelimit.Groups, len(want))
	for name, rule := range want {
		g, ok := ratelimit.Lookup(name)
		require.True(t, ok, name)
		require.Equal(t, []ratelimit.Rule{rule}, g.Rules, name)
	}
}

// BenchmarkAllow measures one check against the real Redis.
func BenchmarkAllow(b *testing.B) {
	l := newLimiter(ratelimit.Scale(1 << 20))
	ctx := context.Background()
	var n atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		subject := fmt.Sprint("s", n.Add(1))
		for pb.Next() {
			if _, err := l.Allow(ctx, "default", subject); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A budget counts each spend's cost; a spend that does not fit is refused
// without being recorded, and says when it would fit.
func TestSpendWeighted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiter()
	rule := ratelimit.Rule{Limit: 100, Window: 400 * time.Millisecond}
	r, err := l.Spend(ctx, "cost", "key:a", 60, rule)
	require.NoError(t, err)
	require.True(t, r.Allowed)
	require.Equal(t, 100, r.Limit)
	require.Equal(t, 40, r.Remaining)
	require.Greater(t, r.Reset, time.Duration(0))
	r, err = l.Spend(ctx, "cost", "key:a", 30, rule)
	require.NoError(t, err)
	require.True(t, r.Allowed)
	require.Equal(t, 10, r.Remaining)
	r, err = l.Spend(ctx, "cost", "key:a", 20, rule)
	require.NoError(t, err)
	require.False(t, r.Allowed)
	require.Equal(t, 10, r.Remaining)
	require.Greater(t, r.RetryAfter, time.Duration(0))
	require.LessOrEqual(t, r.RetryAfter, 400*time.Millisecond)
	// Another subject has its own budget; a small spend still fits.
	r, _ = l.Spend(ctx, "cost", "key:b", 100, rule)
	require.True(t, r.Allowed)
	r, _ = l.Spend(ctx, "cost", "key:a", 10, rule)
	require.True(t, r.Allowed)
	require.Equal(t, 0, r.Remaining)
	// Once the first spend leaves the window, its 60 are back.
	time.Sleep(450 * time.Millisecond)
	r, err = l.Spend(ctx, "cost", "key:a", 50, rule)
	require.NoError(t, err)
	require.True(t, r.Allowed)
	require.Equal(t, 50, r.Remaining)
}
