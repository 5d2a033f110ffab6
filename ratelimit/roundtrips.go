package ratelimit

import (
	"context"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// RoundTrips is a go-redis hook that counts a client's round trips to
// Redis: a command or a pipeline is one (the benchmarks' verdicts and the
// tests that hold a request to one round trip read it).
type RoundTrips struct{ n atomic.Int64 }

// Count is the number of round trips so far.
func (c *RoundTrips) Count() int64 { return c.n.Load() }

func (c *RoundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *RoundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmd)
	}
}

func (c *RoundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmds)
	}
}
