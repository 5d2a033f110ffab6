package ratelimit_test

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"commerce/ratelimit"
)

// Exactly limit slots are held at once, across limiters (processes) sharing
// a prefix; a released slot is free again; subjects are independent.
func TestSlotsExactlyLimitThenRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := prefix()
	a, b := ratelimit.New(client, p), ratelimit.New(client, p)
	var held []*ratelimit.Slot
	for i := range 5 {
		l := a
		if i%2 == 1 {
			l = b
		}
		s, ok, err := l.Acquire(ctx, "subs", "key_1", 5, time.Minute)
		require.NoError(t, err)
		require.True(t, ok, "slot %d", i)
		held = append(held, s)
	}
	s, ok, err := b.Acquire(ctx, "subs", "key_1", 5, time.Minute)
	require.NoError(t, err)
	require.False(t, ok)
	require.Nil(t, s)
	_, ok, err = a.Acquire(ctx, "subs", "key_2", 5, time.Minute)
	require.NoError(t, err)
	require.True(t, ok, "another subject has its own slots")

	require.NoError(t, held[0].Release(ctx))
	_, ok, err = b.Acquire(ctx, "subs", "key_1", 5, time.Minute)
	require.NoError(t, err)
	require.True(t, ok, "a released slot is free")
	held = held[1:]
	// A holder's refresh is always allowed, even at the limit.
	for _, s := range held {
		ok, err := s.Refresh(ctx)
		require.NoError(t, err)
		require.True(t, ok)
	}
}

// A slot whose holder stops refreshing frees itself after ttl; one that
// refreshes stays; a holder that lost its slot while the limit filled up
// learns it on its next refresh.
func TestSlotsExpireWithoutRefresh(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiter()
	const ttl = 300 * time.Millisecond
	alive, ok, err := l.Acquire(ctx, "subs", "k", 2, ttl)
	require.NoError(t, err)
	require.True(t, ok)
	dead, ok, err := l.Acquire(ctx, "subs", "k", 2, ttl)
	require.NoError(t, err)
	require.True(t, ok)
	_, ok, _ = l.Acquire(ctx, "subs", "k", 2, ttl)
	require.False(t, ok)
	for range 4 {
		time.Sleep(ttl / 3)
		ok, err := alive.Refresh(ctx)
		require.NoError(t, err)
		require.True(t, ok)
	}
	taker, ok, err := l.Acquire(ctx, "subs", "k", 2, ttl)
	require.NoError(t, err)
	require.True(t, ok, "the dead holder's slot expired")
	require.NotNil(t, taker)
	ok, err = dead.Refresh(ctx)
	require.NoError(t, err)
	require.False(t, ok, "the expired holder lost its place")
}

// Concurrent acquirers never get more than limit slots.
func TestSlotsConcurrentExactness(t *testing.T) {
	t.Parallel()
	l := newLimiter()
	var wg sync.WaitGroup
	var got atomic.Int32
	for range 50 {
		wg.Go(func() {
			_, ok, err := l.Acquire(context.Background(), "subs", "k", 10, time.Minute)
			if err == nil && ok {
				got.Add(1)
			}
		})
	}
	wg.Wait()
	require.Equal(t, int32(10), got.Load())
}

// Redis down: allowed, with a slot that does nothing, and the error.
func TestSlotsRedisDownFailsOpen(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	down := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	l := ratelimit.New(down, "x:")
	s, ok, err := l.Acquire(context.Background(), "subs", "k", 1, time.Minute)
	require.Error(t, err)
	require.True(t, ok)
	ok, err = s.Refresh(context.Background())
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, s.Release(context.Background()))
	_, ok, err = l.Acquire(context.Background(), "subs", "k", 1, time.Minute)
	require.ErrorIs(t, err, ratelimit.ErrUnavailable)
	require.True(t, ok)
}
