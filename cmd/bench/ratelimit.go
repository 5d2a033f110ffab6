package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"commerce/ratelimit"
)

// errRefused is a check the limiter refused: none should be.
var errRefused = errors.New("refused by the limiter")

// setupRatelimit measures the rate limiter alone against Redis: each
// operation is Allow in the "default" group for a subject never used
// before, so that nothing is refused and every check does the full work
// (trim, count, add, expire). The Redis client is set up as the service's.
func setupRatelimit(ctx context.Context, e *env) (opFactory, func(), error) {
	e.ratelimit = &ratelimitRun{}
	rdb, err := newServiceRedis(ctx, e.cfg, e.ratelimit)
	if err != nil {
		return nil, nil, err
	}
	// The run's own prefix keeps its keys (they expire after a minute) apart.
	lim := ratelimit.New(rdb, "bench:"+strconv.FormatInt(time.Now().UnixNano(), 36)+":")
	newOp := func(worker int) op {
		subject := "w" + strconv.Itoa(worker) + ":"
		var n uint64
		return func(ctx context.Context) error {
			n++
			e.ratelimit.checks.Add(1)
			res, err := lim.Allow(ctx, "default", subject+strconv.FormatUint(n, 36))
			if err != nil {
				return err
			}
			if !res.Allowed {
				return errRefused
			}
			return nil
		}
	}
	return newOp, func() { _ = rdb.Close() }, nil
}

// newServiceRedis returns a Redis client set up as the service's
// (server/redis.go's OpenRedis: timeouts, retries, one dial, RESP2; a pool
// of at least 64) whose
// round trips run counts.
func newServiceRedis(ctx context.Context, c config, run *ratelimitRun) (*redis.Client, error) {
	opts, err := redis.ParseURL(c.redisURL)
	if err != nil {
		return nil, fmt.Errorf("parse Redis URL: %w", err)
	}
	opts.DialTimeout = 500 * time.Millisecond
	opts.ReadTimeout = 500 * time.Millisecond
	opts.WriteTimeout = 500 * time.Millisecond
	opts.MaxRetries = 1
	opts.DialerRetries = 1
	opts.PoolSize = max(64, c.concurrency)
	opts.Protocol = 2
	rdb := redis.NewClient(opts)
	rdb.AddHook(run)
	if err := rdb.Ping(ctx).Err(); err != nil {
		_ = rdb.Close()
		return nil, fmt.Errorf("connect to Redis: %w", err)
	}
	return rdb, nil
}

// ratelimitRun counts the limiter's checks and its round trips to Redis
// (a go-redis hook: a command or a pipeline is one round trip).
type ratelimitRun struct {
	checks atomic.Int64
	ratelimit.RoundTrips
}

// checkRatelimit: one Redis round trip per check (the script loaded, the
// EVALSHA answered; a NOSCRIPT retry would show as more).
func checkRatelimit(_ context.Context, e *env, _ *result) verdict {
	return roundTrips(e.ratelimit, "round trips per check")
}

// roundTrips is the verdict on run's round trips per check: at most one
// (1 % of slack for the script's first load).
func roundTrips(run *ratelimitRun, name string) verdict {
	v := verdict{name: name}
	if run == nil || run.checks.Load() == 0 {
		v.state, v.detail = "SKIP", "no checks counted"
		return v
	}
	per := float64(run.Count()) / float64(run.checks.Load())
	v.state = passFail(per <= 1.01)
	v.detail = fmt.Sprintf("%.3f (%d round trips for %d checks), want 1", per, run.Count(), run.checks.Load())
	return v
}
